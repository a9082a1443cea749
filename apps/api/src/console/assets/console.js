/* global document, Element, navigator */
// The console's only script: copy buttons. Everything else works without it. Its words come from
// the page (data-copied, data-selected), in the page's language.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const input = document.getElementById(button.getAttribute('data-copy'));
  if (!input) return;
  const status = document.querySelector(`[data-copied-for="${input.id}"]`);
  try {
    await navigator.clipboard.writeText(input.value);
    if (status) status.textContent = button.getAttribute('data-copied') ?? '';
  } catch {
    input.select();
    if (status) status.textContent = button.getAttribute('data-selected') ?? '';
  }
});
