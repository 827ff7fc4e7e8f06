/// The settings part of the phone page (`RemotePage` places `section` in its page and `script`
/// after its own script). Fields are named by their config.toml option (`data-key`); only the
/// fields changed are sent, so the settings file holds only what the person changed. The menus'
/// choices and every check come from the server (`/api/settings`); the page checks nothing itself.
enum RemoteSettingsPage {
    static let section = """
    <section id="settings">
    <h1>Settings</h1>
    <form id="settings-form" class="settings" novalidate>
    <label>Seconds per photo <input type="number" data-key="slideshow.interval" min="1" step="any" inputmode="decimal"></label>
    <label>Order <select data-key="slideshow.order"></select></label>
    <label>Transition <select data-key="slideshow.transition"></select></label>
    <label><input type="checkbox" data-key="slideshow.ken_burns"> Slow pan and zoom (Ken Burns)</label>
    <label><input type="checkbox" data-key="slideshow.pair_portraits"> Two portrait photos side by side</label>
    <label>Clock <select data-key="overlay.clock"></select></label>
    <label>Date taken <select data-key="overlay.date_taken"></select></label>
    <label>Caption <select data-key="overlay.caption"></select></label>
    <label>Place <select data-key="overlay.place"></select></label>
    <fieldset><legend>Screen off (days like mon-fri or sat, sun)</legend><div id="settings-periods"></div>
    <button type="button" id="settings-add-period" class="off">Add a time</button></fieldset>
    <label>A touch wakes the screen for (minutes, 0: never) <input type="number" data-key="schedule.wake_minutes" min="0" step="1"></label>
    <label>Sort photos by <select data-key="library.sort"></select></label>
    <label><input type="checkbox" data-key="kiosk"> Kiosk mode (no way to quit on the frame)</label>
    <fieldset><legend>Photo sources, synced by rclone (a remote set up in rclone.conf, then REMOTE:PATH; minutes between syncs; MB, 0: no limit)</legend>
    <div id="settings-sources"></div>
    <button type="button" id="settings-add-source" class="off">Add a source</button>
    <p class="note">A removed source is no longer synced or shown; its photos stay in its folder on the frame. Passwords never go through this page: they stay in rclone.conf on the frame.</p></fieldset>
    <div class="buttons"><button type="submit" id="settings-save">Save</button><button type="button" id="settings-reset" class="off">Back to config.toml</button></div>
    <div id="settings-message"></div>
    <p id="settings-source" class="note"></p>
    </form>
    <style>
    .settings label{display:block;margin:8px 0}
    .settings select,.settings input[type=number],.settings input[type=text],.settings input[type=time]{font-size:1em;padding:6px;margin-left:6px;background:#222;color:#eee;border:1px solid #555;border-radius:4px}
    .settings input[type=checkbox]{transform:scale(1.4);margin-right:8px}
    .settings fieldset{border:1px solid #444;border-radius:6px;margin:8px 0}
    .settings .period{display:flex;gap:4px;align-items:center;margin:4px 0}
    .settings .period input[type=text]{width:8em}
    .settings .source{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:4px 0}
    .settings .source input[type=text]{width:9em}
    .settings .source input[type=number]{width:5em}
    .note{color:#aaa;font-size:.85em}
    #settings-message.ok{color:#8fd18f}
    </style>
    </section>
    """

    static let script = """
    "use strict";
    (() => {
      const form = document.getElementById("settings-form");
      const message = document.getElementById("settings-message");
      const periods = document.getElementById("settings-periods");
      const sources = document.getElementById("settings-sources");
      let loaded = null;
      function tell(text, ok) { message.textContent = text || ""; message.className = ok ? "ok" : "err"; }
      function valueAt(settings, key) { return key.split(".").reduce((o, k) => o && o[k], settings); }
      async function call(method, body) {
        // Changes say JSON even without a body: the server refuses other types (cross-site forms).
        const options = {method, credentials: "same-origin", headers: method === "GET" ? {} : {"Content-Type": "application/json"}};
        if (body !== undefined) options.body = JSON.stringify(body);
        const response = await fetch("/api/settings", options);
        if (response.status === 401) { location.reload(); throw new Error("logged out"); }
        const data = await response.json().catch(() => ({}));
        if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
        return data;
      }
      function addPeriod(period) {
        const row = document.createElement("div");
        row.className = "period";
        const days = document.createElement("input");
        days.type = "text"; days.className = "days"; days.value = (period.days || ["daily"]).join(", ");
        const off = document.createElement("input");
        off.type = "time"; off.className = "off-time"; off.value = period.off || "22:00";
        const on = document.createElement("input");
        on.type = "time"; on.className = "on-time"; on.value = period.on || "07:00";
        const remove = document.createElement("button");
        remove.type = "button"; remove.className = "off"; remove.textContent = "✕";
        remove.onclick = () => row.remove();
        row.append(days, " off ", off, " on ", on, remove);
        periods.append(row);
      }
      function addSource(source) {
        const row = document.createElement("div");
        row.className = "source";
        function input(type, name, value, label) {
          const field = document.createElement("input");
          field.type = type; field.className = name; field.value = value; field.setAttribute("aria-label", label);
          if (type === "text") { field.placeholder = label; field.autocapitalize = "none"; field.spellcheck = false; }
          return field;
        }
        const remove = document.createElement("button");
        remove.type = "button"; remove.className = "off"; remove.textContent = "✕";
        remove.onclick = () => row.remove();
        row.append(input("text", "name", source.name || "", "name"), input("text", "remote", source.remote || "", "REMOTE:PATH"),
                   " every ", input("number", "interval", source.interval ?? 60, "minutes"), " min, ",
                   input("number", "quota", source.quota_mb ?? 0, "MB"), " MB", remove);
        sources.append(row);
      }
      function readSources() {
        const number = text => text === "" ? NaN : Number(text);
        return [...sources.querySelectorAll(".source")].map(row => ({
          name: row.querySelector(".name").value.trim(), remote: row.querySelector(".remote").value.trim(),
          interval: number(row.querySelector(".interval").value), quota_mb: number(row.querySelector(".quota").value)}));
      }
      function readPeriods() {
        return [...periods.querySelectorAll(".period")].map(row => ({
          days: row.querySelector(".days").value.split(/[,\\s]+/).filter(d => d),
          off: row.querySelector(".off-time").value, on: row.querySelector(".on-time").value}));
      }
      function fill(data) {
        loaded = data;
        for (const field of form.querySelectorAll("[data-key]")) {
          const key = field.dataset.key, value = valueAt(data.settings, key);
          if (field.tagName === "SELECT" && field.options.length === 0) {
            for (const choice of data.choices[key] || []) field.add(new Option(choice, choice));
          }
          if (field.type === "checkbox") field.checked = value; else field.value = value;
        }
        periods.replaceChildren();
        for (const period of data.settings.schedule.period) addPeriod(period);
        sources.replaceChildren();
        for (const source of data.settings.source) addSource(source);
        const held = data.from_settings_file;
        document.getElementById("settings-source").textContent = held.length
          ? `From this page (kept in ${data.settings_file}, over config.toml): ${held.join(", ")}. The rest comes from config.toml.`
          : "Every setting comes from config.toml; what you save here is kept in " + data.settings_file + " and wins over it.";
      }
      function changes() {
        const body = {};
        function put(key, value) {
          const path = key.split("."), last = path.pop();
          let o = body;
          for (const k of path) o = o[k] = o[k] || {};
          o[last] = value;
        }
        for (const field of form.querySelectorAll("[data-key]")) {
          const key = field.dataset.key, before = valueAt(loaded.settings, key);
          let value = field.type === "checkbox" ? field.checked : field.value;
          if (field.type === "number") value = field.value === "" ? NaN : Number(field.value);
          if (value !== before) put(key, value);
        }
        const newPeriods = readPeriods();
        if (JSON.stringify(newPeriods) !== JSON.stringify(loaded.settings.schedule.period)) put("schedule.period", newPeriods);
        // The whole list: once saved here it stands in for config.toml's [[source]] tables.
        const newSources = readSources();
        if (JSON.stringify(newSources) !== JSON.stringify(loaded.settings.source)) put("source", newSources);
        return body;
      }
      form.onsubmit = async event => {
        event.preventDefault();
        const body = changes();
        if (Object.keys(body).length === 0) { tell("Nothing changed.", true); return; }
        try { fill(await call("PUT", body)); tell("Saved: the frame uses it now.", true); }
        catch (e) { tell(e.message); }
      };
      document.getElementById("settings-add-period").onclick = () => addPeriod({});
      document.getElementById("settings-add-source").onclick = () => addSource({});
      document.getElementById("settings-reset").onclick = async () => {
        if (!confirm("Forget the settings saved here and use config.toml's?")) return;
        try { fill(await call("DELETE")); tell("Back to config.toml.", true); } catch (e) { tell(e.message); }
      };
      call("GET").then(fill).catch(e => tell(e.message));
    })();
    """
}
