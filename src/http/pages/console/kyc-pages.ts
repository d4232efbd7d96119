import { REJECTION_REASONS } from '../../../domain/kyc/kyc-rules.ts';
import type { AdminVerification, VerificationForReview } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame, postForm, table, when } from './layout.ts';

export type Verification = Answered<typeof AdminVerification> &
  Partial<Answered<typeof VerificationForReview>>;

export const kycQueuePage = (f: Frame, pending: Verification[]) =>
  consolePage(
    'KYC review',
    f,
    table(
      ['Submitted', 'Country', 'Document', 'Level', ''],
      pending.map((v) => [
        when(v.submitted_at),
        esc(v.country),
        esc(v.document_kind),
        esc(v.level),
        `<a href="/console/kyc/${v.id}">Review</a>`,
      ]),
      'Nothing waits for review.',
    ),
  );

export const kycReviewPage = (f: Frame, v: Verification) => {
  const base = `/console/kyc/${v.id}`;
  const decide =
    v.status === 'pending'
      ? `<h2>Decision</h2><p>${postForm(`${base}/approve`, f.csrf, '', 'Approve')}</p>${postForm(
          `${base}/reject`,
          f.csrf,
          `<label for="reason">Reason</label><select id="reason" name="reason" required>${REJECTION_REASONS.map(
            (r) => `<option value="${r}">${r.replaceAll('_', ' ')}</option>`,
          ).join('')}</select>
<label for="message">Message to the user</label><input type="text" id="message" name="message" maxlength="500">`,
          'Reject',
          'block',
        )}`
      : `<p>Decided ${when(v.decided_at)}: <strong>${esc(v.status)}</strong>${v.reason ? ` (${esc(v.reason)}: ${esc(v.message)})` : ''}</p>`;
  return consolePage(
    'KYC submission',
    f,
    `${table(
      ['User', 'Country', 'Date of birth', 'Document', 'Level', 'Submitted', 'Status'],
      [
        [
          v.user
            ? `<a href="/console/users/${v.user.id}">${esc(v.user.name ?? v.user.handle)}</a><br>${esc(v.user.phone)}`
            : 'deleted account',
          esc(v.country),
          esc(v.birthday),
          esc(v.document_kind),
          esc(v.level),
          when(v.submitted_at),
          esc(v.status),
        ],
      ],
    )}<h2>Photos</h2><div class="photos">${
      (v.photos ?? [])
        .map(
          (p) =>
            `<figure><img src="${base}/photos/${p.id}" alt="${esc(p.kind)} photo"><figcaption>${esc(p.kind)}, ${Math.ceil(p.size / 1024)} KB</figcaption></figure>`,
        )
        .join('') || '<p>No photos (removed by the retention setting).</p>'
    }</div>${decide}`,
  );
};
