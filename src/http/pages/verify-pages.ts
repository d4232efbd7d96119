import { COUNTRIES } from '../../domain/kyc/countries.ts';
import type { LinkProblem } from '../../domain/kyc/kyc.ts';
import { DOCUMENT_KINDS, DOCUMENT_LABELS } from '../../domain/kyc/kyc-rules.ts';
import { errorBox, esc, field, hidden, page } from './html.ts';

// D38: the hosted verification page. Its labels are a contract for integrators' browser tests:
// "Country", "Date of birth", "Document type", "Document photo", "Selfie", and the button "Submit".

export interface VerifyForm {
  action: string;
  csrf: string;
  error?: string;
  values?: { country?: string; birthday?: string; document_kind?: string };
  /** the latest birthday that is 18 years ago today, for the date picker */
  maxBirthday: string;
}

const options = (items: { value: string; label: string }[], selected: string | undefined, prompt: string) =>
  `<option value="">${esc(prompt)}</option>${items
    .map(
      (i) => `<option value="${i.value}"${i.value === selected ? ' selected' : ''}>${esc(i.label)}</option>`,
    )
    .join('')}`;

const select = (label: string, name: string, inner: string) =>
  `<label for="${name}">${esc(label)}</label><select id="${name}" name="${name}" required>${inner}</select>`;

const IMAGE_TYPES = 'accept="image/jpeg,image/png,image/webp"';

export const verifyFormPage = (f: VerifyForm) =>
  page(
    'Verify your identity',
    `<p>We need your country, your date of birth and a photo of an identity document. A selfie is optional;
with it your verification reaches the higher level.</p>${errorBox(f.error)}
<form method="post" action="${esc(f.action)}" enctype="multipart/form-data">${hidden('csrf', f.csrf)}
${select(
  'Country',
  'country',
  options(
    COUNTRIES.map((c) => ({ value: c.code, label: c.name })),
    f.values?.country,
    'Choose your country',
  ),
)}
${field('Date of birth', 'birthday', `type="date" required max="${f.maxBirthday}" value="${esc(f.values?.birthday ?? '')}" autocomplete="bday"`)}
${select(
  'Document type',
  'document_kind',
  options(
    DOCUMENT_KINDS.map((k) => ({ value: k, label: DOCUMENT_LABELS[k] })),
    f.values?.document_kind,
    'Choose a document',
  ),
)}
${field('Document photo', 'document', `type="file" ${IMAGE_TYPES} multiple required aria-describedby="document-hint"`)}
<p id="document-hint">JPEG, PNG or WebP, at most 10 MB each: the front, and the back if it has one.</p>
${field('Selfie', 'selfie', `type="file" ${IMAGE_TYPES} aria-describedby="selfie-hint"`)}
<p id="selfie-hint">Optional. A photo of your face, 10 MB at most.</p>
<button type="submit">Submit</button></form>`,
  );

export const submittedPage = (status: string) =>
  page(
    status === 'verified'
      ? 'Identity verified'
      : status === 'rejected'
        ? 'Verification not accepted'
        : 'Thank you',
    status === 'verified'
      ? '<p>Your identity is verified. You can return to the app.</p>'
      : status === 'rejected'
        ? '<p>Your documents could not be accepted. The app will tell you why; you can try again from there.</p>'
        : '<p>Your documents were submitted and will be reviewed. You can return to the app; it will show the result.</p>',
  );

const PROBLEMS: Record<LinkProblem, [string, string]> = {
  unknown: [
    'Link not valid',
    'This verification link is not valid. Start the verification again from the app.',
  ],
  expired: [
    'Link expired',
    'This verification link has expired (links last 30 minutes). Start again from the app.',
  ],
  used: [
    'Link already used',
    'This verification link has already been used. Return to the app to see your status.',
  ],
};

export const linkProblemPage = (problem: LinkProblem) =>
  page(PROBLEMS[problem][0], `<p role="alert">${PROBLEMS[problem][1]}</p>`);

export const tooManyPage = page(
  'Too many attempts',
  '<p role="alert">Too many attempts from your network. Wait a minute and try again.</p>',
);

export const somethingWrongPage = page(
  'Something went wrong',
  '<p role="alert">Something went wrong on our side. Your link still works: please try again in a moment.</p>',
);

export const unreadablePage = page(
  'Form not accepted',
  '<p role="alert">The form could not be read. Go back, check the photos and try again.</p>',
);
