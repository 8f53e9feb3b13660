// Small progressive enhancements; every form works without them.
document.addEventListener('change', (event) => {
  const target = event.target;
  // The organization switcher submits when a new organization is picked (its button stays for keyboards).
  if (target instanceof HTMLSelectElement && target.hasAttribute('data-autosubmit')) target.form?.requestSubmit();
});
document.addEventListener('submit', (event) => {
  const form = event.target;
  // Destructive actions ask first.
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
// Copy buttons for secrets shown once.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent.trim()).then(() => { button.textContent = 'Copied'; });
});
