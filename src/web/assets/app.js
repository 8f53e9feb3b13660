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
// Invoice upload: drag and drop onto the form, one request per file with its byte progress, and
// each file's line (answered by the server) in place; htmx then polls a running import's line.
// Without this the form posts all files at once and the answer is a page of results.
(() => {
  const form = document.querySelector('form[data-upload]');
  const list = document.querySelector('[data-upload-results]');
  if (!form || !list || !window.FormData || !window.XMLHttpRequest) return;
  const input = form.querySelector('input[type="file"]');
  const zone = form.querySelector('[data-drop-zone]');
  const csrf = form.querySelector('input[name="_csrf"]').value;
  const text = form.dataset;

  const line = (file) => {
    const item = document.createElement('li');
    item.className = 'upload-row';
    item.dataset.uploadState = 'uploading';
    const name = document.createElement('span');
    name.className = 'upload-name';
    name.textContent = file.name;
    const progress = document.createElement('progress');
    progress.max = 100;
    progress.value = 0;
    progress.setAttribute('aria-label', `${text.textProgress} ${file.name}`);
    const state = document.createElement('span');
    state.className = 'status status-running';
    state.textContent = text.textUploading;
    item.append(name, state, progress);
    list.prepend(item);
    return { item, progress };
  };

  const refused = (item, message) => {
    item.dataset.uploadState = 'refused';
    item.querySelector('progress')?.remove();
    const state = item.querySelector('.status');
    state.className = 'status status-failed';
    state.textContent = text.textRefused;
    const reason = document.createElement('span');
    reason.className = 'upload-reason';
    reason.textContent = message;
    item.append(reason);
  };

  // The error page's own message (the API's words), else the status.
  const messageOf = (request) => {
    const page = new DOMParser().parseFromString(request.responseText || '', 'text/html');
    return page.querySelector('main .card p')?.textContent?.trim() || `${request.status} ${request.statusText}`;
  };

  const send = (file) => {
    const { item, progress } = line(file);
    const body = new FormData();
    body.append('_csrf', csrf);
    body.append('files', file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.setRequestHeader('HX-Request', 'true');
    request.setRequestHeader('X-CSRF-Token', csrf);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) progress.value = Math.round((event.loaded / event.total) * 100);
    });
    request.addEventListener('load', () => {
      if (request.status !== 200) return refused(item, messageOf(request));
      const holder = document.createElement('ul');
      holder.innerHTML = request.responseText;
      const answered = holder.querySelector('li');
      if (!answered) return refused(item, `${request.status}`);
      item.replaceWith(answered);
      if (window.htmx) window.htmx.process(answered);
    });
    request.addEventListener('error', () => refused(item, `${request.status || ''} ${request.statusText || ''}`.trim() || text.textNetworkError));
    request.send(body);
  };

  // The list below was read before these files: a link reads it again.
  const refresh = document.querySelector('[data-upload-refresh]');
  const sendAll = (files) => {
    for (const file of files) send(file);
    if (refresh) refresh.hidden = false;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.files || input.files.length === 0) {
      input.setCustomValidity(text.textNoFiles);
      input.reportValidity();
      return;
    }
    sendAll([...input.files]);
    form.reset();
  });
  input.addEventListener('change', () => input.setCustomValidity(''));
  for (const type of ['dragenter', 'dragover']) {
    zone.addEventListener(type, (event) => {
      event.preventDefault();
      zone.classList.add('dragging');
    });
  }
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    if (event.dataTransfer?.files?.length) sendAll([...event.dataTransfer.files]);
  });
})();
// Alerts triage (issue 28): selecting on the page and keyboard shortcuts. Without this the
// boxes, the "Select all on this page" link (the same page with every box ticked) and the bulk
// buttons work as they are. Shortcuts never act while someone types in a field.
(() => {
  const form = document.querySelector('form[data-triage]');
  if (!form) return;
  const rows = () => [...document.querySelectorAll('table[data-triage-table] tr[data-alert-row]')];
  const boxOf = (row) => row.querySelector('input[type="checkbox"][name="alert_ids"]');
  const boxes = () => rows().map(boxOf).filter(Boolean);
  const count = document.querySelector('[data-selected-count]');
  const selectPage = document.querySelector('[data-select-page]');
  const countText = count ? count.textContent.replace(/^\s*\d+\s*/, '') : '';
  const update = () => {
    const chosen = boxes().filter((box) => box.checked).length;
    if (count) count.textContent = `${chosen} ${countText}`;
  };
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'alert_ids') update();
  });
  // Ticks every box on the page in place (or clears them when all are ticked).
  const toggleAll = () => {
    const all = boxes();
    const tick = !all.every((box) => box.checked);
    for (const box of all) box.checked = tick;
    update();
  };
  // Enter in a field runs the action of its own group (the form's default button does nothing).
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement) || event.target.type === 'checkbox') return;
    const button = event.target.closest('.bulk-group')?.querySelector('button[type="submit"]');
    if (!button) return;
    event.preventDefault();
    button.click();
  });
  selectPage?.addEventListener('click', (event) => {
    event.preventDefault();
    toggleAll();
  });

  let current = -1;
  const focusRow = (index) => {
    const list = rows();
    if (list.length === 0) return;
    current = Math.max(0, Math.min(list.length - 1, index));
    list.forEach((row, n) => row.classList.toggle('current-row', n === current));
    const row = list[current];
    (boxOf(row) || row.querySelector('a'))?.focus();
    row.scrollIntoView({ block: 'nearest' });
  };
  // Moving through the table with Tab or the mouse moves the current row too.
  document.addEventListener('focusin', (event) => {
    const row = event.target instanceof Element ? event.target.closest('tr[data-alert-row]') : null;
    if (row) {
      current = rows().indexOf(row);
      rows().forEach((r) => r.classList.toggle('current-row', r === row));
    }
  });

  const help = document.querySelector('[data-shortcuts]');
  if (help) help.hidden = false;
  const typing = typingIn;
  const goTo = (id) => {
    const field = document.getElementById(id);
    if (!field) return;
    field.scrollIntoView({ block: 'center' });
    field.focus();
  };
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const row = () => rows()[current];
    const actions = {
      j: () => focusRow(current + 1),
      k: () => focusRow(current < 0 ? 0 : current - 1),
      x: () => {
        if (current < 0) return focusRow(0);
        const box = boxOf(row());
        if (box) {
          box.checked = !box.checked;
          update();
        }
      },
      a: toggleAll,
      o: () => row()?.querySelector('td a')?.click(),
      d: () => goTo('bulk-category'),
      c: () => goTo('bulk-claim'),
      '?': () => {
        if (!help) return;
        help.open = !help.open;
        help.querySelector('summary')?.focus();
      },
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
})();
// Review (issue 28): the value being edited outlines its box on the original page, and
// Ctrl+Enter (Cmd+Enter) saves the correction form from anywhere on the page.
(() => {
  const form = document.querySelector('[data-review-form]');
  if (!form) return;
  const activate = (number) => {
    for (const box of document.querySelectorAll('.review-box.active')) box.classList.remove('active');
    const box = number ? document.getElementById(`review-box-${number}`) : null;
    if (box) box.classList.add('active');
  };
  form.addEventListener('focusin', (event) => {
    const holder = event.target instanceof Element ? event.target.closest('[data-box]') : null;
    activate(holder ? holder.getAttribute('data-box') : null);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    form.requestSubmit(form.querySelector('[data-review-save]') || undefined);
  });
})();
// Whether a key press is someone typing (a text field, a list, an editable area): shortcuts
// never act then. Checkboxes, radios and buttons are not typing.
function typingIn(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.closest('textarea, select, [contenteditable]')) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return false;
}
// Keyboard shortcuts a page declares in its HTML (issue 28; the claim page): the key on an
// element's data-key focuses it (a field), opens its details (a summary) or follows it (a link);
// j and k move through the links marked data-key-row, o opens the current one; ? opens the list
// (data-page-shortcuts), which hides keys the page does not offer (a Read member has no refund form).
(() => {
  const help = document.querySelector('[data-page-shortcuts]');
  if (!help) return;
  const rows = () => [...document.querySelectorAll('a[data-key-row]')];
  const targetOf = (key) => document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  const ROW_KEYS = ['j', 'k', 'o'];
  for (const entry of help.querySelectorAll('[data-key-help]')) {
    const key = entry.getAttribute('data-key-help');
    entry.hidden = key !== '?' && !(ROW_KEYS.includes(key) ? rows().length > 0 : targetOf(key));
  }
  help.hidden = false;

  let current = -1;
  const move = (step) => {
    const list = rows();
    if (list.length === 0) return;
    current = current < 0 ? 0 : Math.max(0, Math.min(list.length - 1, current + step));
    list[current].focus();
    list[current].scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof Element && event.target.matches('a[data-key-row]')) current = rows().indexOf(event.target);
  });
  const act = (target) => {
    if (target.tagName === 'SUMMARY') {
      target.parentElement.open = true;
      target.focus();
    } else if (target.matches('input, select, textarea')) target.focus();
    else return target.click();
    target.scrollIntoView({ block: 'center' });
  };
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
    const actions = {
      j: () => move(1),
      k: () => move(-1),
      o: () => rows()[current]?.click(),
      '?': () => {
        help.open = !help.open;
        help.querySelector('summary')?.focus();
      },
    };
    const target = actions[event.key] ? null : targetOf(event.key);
    if (!actions[event.key] && !target) return;
    event.preventDefault();
    if (target) act(target);
    else actions[event.key]();
  });
})();
