// The page's few DOM helpers: a query, the message line, a form's error line.
import { t } from './i18n.js';

export const $ = (s) => document.querySelector(s);

// A refusal of a form, written under the form that was used (empty clears it).
export function formError(selector, text) {
  $(selector).textContent = text || '';
}

// The game's message line: a notice, or a refusal (prefixed "Not possible:" unless told not to).
export function say(text, isError, prefixed = true) {
  const m = $('#message');
  m.textContent = text ? (isError && prefixed ? t('refused') + text : text) : '';
  m.className = isError ? 'error' : '';
}

// An element with a class and a text (the text always as text, never as HTML).
export function tag(name, className, text) {
  const e = document.createElement(name);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}
