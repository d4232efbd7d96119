import { esc } from '../html.ts';
import { consolePage, type Frame, hiddenCsrf } from './layout.ts';

/** What a danger action asks before it acts: the question, and its own form again with `confirm=yes`. */
export interface Confirmation {
  question: string;
  button: string;
  /** where the form posts: the action itself */
  action: string;
  /** the form's other fields, carried as they came */
  fields: Record<string, string | string[] | undefined>;
  /** where Cancel goes */
  back: string;
}

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

export const confirmPage = (f: Frame, c: Confirmation) => {
  const carried = Object.entries(c.fields)
    .filter(([name]) => name !== 'csrf' && name !== 'confirm')
    .flatMap(([name, value]) => (value === undefined ? [] : [value].flat().map((v) => hidden(name, v))))
    .join('');
  return consolePage(
    'Are you sure?',
    f,
    `<div class="confirm"><p>${esc(c.question)}</p><form method="post" action="${esc(c.action)}">${hiddenCsrf(f.csrf)}${carried}${hidden('confirm', 'yes')}<button type="submit" class="danger">${esc(c.button)}</button><a href="${esc(c.back)}">Cancel</a></form></div>`,
  );
};
