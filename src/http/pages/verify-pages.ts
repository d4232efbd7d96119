import type { DomainError } from '../../domain/errors.ts';
import type { LinkProblem } from '../../domain/kyc/kyc.ts';
import { DOCUMENT_KINDS } from '../../domain/kyc/kyc-rules.ts';
import { COUNTRY_CODES } from '../../i18n/countries.ts';
import type { Language, MessageKey } from '../../i18n/languages.ts';
import { errorAbove, errorAt, type FormProblem } from '../errors/page-messages.ts';
import { sortedCountries } from './country-names.ts';
import { errorBox, esc, field, hidden, page } from './html.ts';
import type { View } from './view.ts';

// The hosted verification page. Its English labels are a contract for integrators' browser tests:
// "Country", "Date of birth", "Document type", "Document photo", "Selfie", and the button "Submit". Every
// language carries the same input names.

export interface VerifyForm {
  action: string;
  csrf: string;
  view: View;
  problem?: FormProblem;
  values?: { country?: string; birthday?: string; document_kind?: string };
  /** the latest birthday that is 18 years ago today, for the date picker */
  maxBirthday: string;
}

const options = (items: [string, string][], selected: string | undefined, prompt: string) =>
  `<option value="">${prompt}</option>${items
    .map(
      ([value, label]) =>
        `<option value="${value}"${value === selected ? ' selected' : ''}>${esc(label)}</option>`,
    )
    .join('')}`;

const select = (label: string, name: string, inner: string, error?: string) =>
  `<div class="field"><label for="${name}">${label}</label><select id="${name}" name="${name}" required${error ? ` aria-describedby="${name}-error" aria-invalid="true"` : ''}>${inner}</select>${error ? `<p class="field-error" id="${name}-error" role="alert">${error}</p>` : ''}</div>`;

const countriesByLanguage = new Map<Language, [string, string][]>();

/** The page's countries, named and sorted in its language; worked out once per language. */
function verifyCountries(lang: Language): [string, string][] {
  let list = countriesByLanguage.get(lang);
  if (!list) {
    list = sortedCountries(lang, COUNTRY_CODES);
    countriesByLanguage.set(lang, list);
  }
  return list;
}

const IMAGE_TYPES = 'accept="image/jpeg,image/png,image/webp"';

const DOCUMENT_NAMES: Record<(typeof DOCUMENT_KINDS)[number], MessageKey> = {
  passport: 'document.passport',
  national_id: 'document.national_id',
  driving_licence: 'document.driving_licence',
  residence_permit: 'document.residence_permit',
};

export const verifyFormPage = (f: VerifyForm) => {
  const t = f.view.t;
  const at = (name: string) => errorAt(f.problem, name);
  const documents = DOCUMENT_KINDS.map((k): [string, string] => [k, t(DOCUMENT_NAMES[k])]);
  return page(
    f.view,
    t('verify.title'),
    `<p>${t('verify.intro')}</p>${errorBox(errorAbove(f.problem))}
<form method="post" action="${esc(f.action)}" enctype="multipart/form-data">${hidden('csrf', f.csrf)}
${select(t('verify.country'), 'country', options(verifyCountries(f.view.lang), f.values?.country, t('verify.choose_country')), at('country'))}
${field(t('verify.birthday'), 'birthday', `type="date" required max="${f.maxBirthday}" value="${esc(f.values?.birthday ?? '')}" autocomplete="bday"`, { error: at('birthday') })}
${select(t('verify.document_kind'), 'document_kind', options(documents, f.values?.document_kind, t('verify.choose_document')), at('document_kind'))}
${field(t('verify.document'), 'document', `type="file" ${IMAGE_TYPES} multiple required`, { hint: t('verify.document_hint'), error: at('document') })}
${field(t('verify.selfie'), 'selfie', `type="file" ${IMAGE_TYPES}`, { hint: t('verify.selfie_hint'), error: at('selfie') })}
<button type="submit">${t('verify.submit')}</button></form>`,
  );
};

const SUBMITTED: Record<string, [MessageKey, MessageKey]> = {
  verified: ['verify.verified_title', 'verify.verified'],
  rejected: ['verify.rejected_title', 'verify.rejected'],
  pending: ['verify.pending_title', 'verify.pending'],
};

export const submittedPage = (v: View, status: string) => {
  const [title, text] = SUBMITTED[status] ?? SUBMITTED.pending;
  return page(v, v.t(title), `<p>${v.t(text)}</p>`);
};

const PROBLEMS: Record<LinkProblem, [MessageKey, MessageKey]> = {
  unknown: ['verify.unknown_title', 'verify.unknown'],
  expired: ['verify.expired_title', 'verify.expired'],
  used: ['verify.used_title', 'verify.used'],
};

const notice = (v: View, [title, text]: [MessageKey, MessageKey]) =>
  page(v, v.t(title), `<p role="alert">${v.t(text)}</p>`);

export const linkProblemPage = (v: View, problem: LinkProblem) => notice(v, PROBLEMS[problem]);
export const tooManyPage = (v: View) => notice(v, ['verify.too_many_title', 'verify.too_many']);
export const somethingWrongPage = (v: View) => notice(v, ['verify.failed_title', 'verify.failed']);
export const unreadablePage = (v: View) => notice(v, ['verify.unreadable_title', 'verify.unreadable']);

// The page's one table from what the domain refused to what the person reads, beside the field it is about.
const BY_REASON: Record<string, MessageKey> = {
  'country:': 'verify.error.country',
  'birthday:format': 'verify.error.birthday_format',
  'birthday:unreal': 'verify.error.birthday_unreal',
  'birthday:underage': 'verify.error.underage',
  'document_kind:': 'verify.error.document_kind',
  'document:missing': 'verify.error.document_missing',
  'document:too_many': 'verify.error.documents_too_many',
  'selfie:too_many': 'verify.error.selfies_too_many',
  too_large: 'verify.error.photo_too_large',
  type: 'verify.error.photo_type',
  pixels: 'verify.error.photo_pixels',
};

export function verifyProblem(v: View, err: DomainError): FormProblem {
  const field = typeof err.details.field === 'string' ? err.details.field : '';
  const reason = err.details.underage
    ? 'underage'
    : typeof err.details.reason === 'string'
      ? err.details.reason
      : '';
  const key = BY_REASON[`${field}:${reason}`] ?? BY_REASON[reason] ?? 'error.check_input';
  return { message: v.t(key), field: field || undefined };
}
