// CSV upload for regression targets. Parsing and validation happen in Rust; on any error the
// message (naming row and column) is shown and the data already loaded stays in place.

const MAX_BYTES = 50 * 1024 * 1024;

/**
 * Wire the data controls. `getLab()` returns the live Lab; `onLoaded()` redraws.
 * Returns { refresh(targetSpec), reapply(lab) } so the app can show/hide the controls and
 * re-load the same file into a rebuilt chain.
 */
export function wireDataUpload(elements, getLab, onLoaded) {
  const { fieldset, file, standardise, clear, summary, error } = elements;
  let loaded = null; // { bytes, name }

  function apply(bytes, name) {
    const lab = getLab();
    try {
      const text = lab.set_data(bytes, standardise.checked);
      loaded = { bytes, name };
      summary.textContent = `${name}: ${text}`;
      error.textContent = '';
      onLoaded();
    } catch (e) {
      error.textContent = `${name} was not loaded: ${e.message || e}. The previous data are still in use.`;
    }
  }

  file.addEventListener('change', async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      error.textContent = `${chosen.name} was not loaded: it is ${(chosen.size / 1048576).toFixed(1)} MB; the limit is 50 MB. The previous data are still in use.`;
      file.value = '';
      return;
    }
    apply(new Uint8Array(await chosen.arrayBuffer()), chosen.name);
    file.value = '';
  });
  standardise.addEventListener('change', () => { if (loaded) apply(loaded.bytes, loaded.name); });
  clear.addEventListener('click', () => {
    try {
      getLab().clear_data();
      loaded = null;
      summary.textContent = 'Built-in data';
      error.textContent = '';
      onLoaded();
    } catch (e) {
      error.textContent = String(e.message || e);
    }
  });

  return {
    refresh(targetSpec) {
      fieldset.hidden = targetSpec.kind !== 'regression';
    },
    /** After the chain was rebuilt (new seed or sampler), load the same file again. */
    reapply() {
      if (loaded) apply(loaded.bytes, loaded.name);
    },
    /** The loaded file, for a second chain on the same data: { bytes, standardise } or null. */
    current() {
      return loaded ? { bytes: loaded.bytes, standardise: standardise.checked } : null;
    },
    forget() {
      loaded = null;
      summary.textContent = 'Built-in data';
      error.textContent = '';
    },
  };
}
