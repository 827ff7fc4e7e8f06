import Basics
import RemoteServer

/// The phone page, shipped in the binary: plain HTML, CSS and a little JavaScript, nothing
/// fetched from elsewhere. It talks to the JSON API with the session cookie its login set.
enum RemotePage {
    static var main: HTTPResponse { html(200, mainHTML) }

    static func login(message: String?) -> HTTPResponse {
        let note = message.map { "<p class=\"err\">\(escaped($0))</p>" } ?? ""
        return html(401, loginHTML(note))
    }

    private static func html(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"),
            ("X-Frame-Options", "DENY"),
        ], body: Array(text.utf8))
    }

    private static func escaped(_ text: String) -> String {
        text.substituting(["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;"])
    }

    private static let style = """
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
    body{font-family:system-ui,sans-serif;margin:0;background:#111;color:#eee}
    main{max-width:640px;margin:0 auto;padding:12px}
    h1{font-size:1.2em;margin:4px 0 10px}
    #screen{width:100%;background:#000;border-radius:6px;display:block;aspect-ratio:16/9;object-fit:contain}
    #status{font-size:.9em;color:#aaa;margin:6px 0}
    #sources{font-size:.9em;color:#aaa;margin:6px 0;white-space:pre-line}
    .buttons{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin:8px 0}
    button,input[type=submit]{font-size:1em;padding:12px 4px;border:0;border-radius:6px;background:#2d5fa8;color:#fff}
    button.off{background:#555}
    #drop{border:2px dashed #666;border-radius:8px;padding:18px;text-align:center;margin:12px 0}
    #drop.over{border-color:#4a90e2;background:#1b2a3d}
    .up{margin:4px 0;font-size:.9em}
    progress{width:100%}
    .err{color:#ff7b7b}
    ul{list-style:none;padding:0}
    li{display:flex;justify-content:space-between;align-items:center;padding:6px 0;border-bottom:1px solid #333;font-size:.9em}
    li button{padding:6px 10px;background:#8a2c2c}
    input[type=password]{font-size:1em;padding:10px;width:100%;box-sizing:border-box;margin:8px 0}
    </style>
    """

    private static func loginHTML(_ note: String) -> String { """
    <!doctype html><html lang="en"><head><meta charset="utf-8"><title>PhotoKiosk</title>\(style)</head>
    <body><main><h1>PhotoKiosk</h1>\(note)
    <form method="post" action="/login"><label>Token<input type="password" name="token" autocomplete="current-password" autofocus></label>
    <input type="submit" value="Log in"></form>
    <p style="color:#aaa;font-size:.85em">The token is in the frame's configuration ([remote] token); <code>photokiosk doctor</code> prints this page's address.</p>
    </main></body></html>
    """
    }

    private static let mainHTML = """
    <!doctype html><html lang="en"><head><meta charset="utf-8"><title>PhotoKiosk</title>\(style)</head>
    <body><main>
    <h1>PhotoKiosk</h1>
    <img id="screen" alt="What the frame shows">
    <div id="status">…</div>
    <div id="sources"></div>
    <div id="sync"></div>
    <div class="buttons">
    <button id="previous">‹ Previous</button><button id="pause">Pause</button><button id="next">Next ›</button>
    <button id="slideshow">Slideshow</button><button id="screenpower">Screen off</button><button id="refresh">Refresh</button>
    </div>
    <div id="message" class="err"></div>
    <div id="drop"><p>Drop photos here (JPEG, PNG, HEIC/HEIF, AVIF, WebP), or</p><input type="file" id="files" accept="image/jpeg,image/png,image/heic,image/heif,image/avif,image/webp,.jpg,.jpeg,.png,.heic,.heif,.hif,.avif,.webp" multiple></div>
    <div id="uploads"></div>
    <h1>Photos <span id="count"></span></h1>
    <ul id="photos"></ul>
    <div class="buttons"><button id="prevpage">‹ Page</button><span id="pageinfo" style="text-align:center;align-self:center"></span><button id="nextpage">Page ›</button></div>
    \(RemoteSettingsPage.section)
    </main>
    <script>
    "use strict";
    const $ = id => document.getElementById(id);
    let status = null, page = 1, screenURL = null;
    function say(text) { $("message").textContent = text || ""; }
    async function api(method, path, body) {
      const options = {method, credentials: "same-origin", headers: {}};
      // Every change is sent as JSON (the server refuses other types: cross-site forms cannot send it).
      if (method !== "GET") options.headers["Content-Type"] = "application/json";
      if (body !== undefined) options.body = JSON.stringify(body);
      const response = await fetch(path, options);
      if (response.status === 401) { location.reload(); throw new Error("logged out"); }
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
      return data;
    }
    function show(s) {
      status = s;
      const where = s.photo ? `${s.photo} (${s.photo_index + 1} of ${s.library_size})` : `${s.library_size} photos`;
      const storage = s.storage && s.storage !== "ok" ? ` · ⚠ ${s.storage}` : "";
      $("status").textContent = `${s.screen}${s.paused ? ", paused" : ""} · ${where}${storage}`;
      // Each synced source (docs/sources.md): its last sync and photo count, or why it fails.
      $("sources").textContent = (s.sources || []).map(x => x.error
        ? `${x.name}: failing (${x.failures}×): ${x.error}`
        : `${x.name}: ${x.last_sync ? `synced ${x.last_sync}, ${x.photos} photos${x.quota ? " (" + x.quota + ")" : ""}` : "not synced yet"}`).join("\\n");
      // Syncthing's state when the frame is set to ask it (null otherwise).
      $("sync").textContent = s.syncthing ? `Phone sync: ${s.syncthing.summary}` : "";
      $("sync").className = s.syncthing && ["error", "not-reachable"].includes(s.syncthing.state) ? "err" : "";
      $("pause").textContent = s.paused ? "Resume" : "Pause";
      $("slideshow").textContent = s.slideshow ? "Stop slideshow" : "Slideshow";
      $("screenpower").textContent = s.screen_on ? "Screen off" : "Screen on";
    }
    async function refreshStatus() { try { show(await api("GET", "/api/status")); } catch (e) { say(e.message); } }
    async function refreshScreen() {
      try {
        const response = await fetch("/api/screen.png", {credentials: "same-origin"});
        if (!response.ok) return;
        const url = URL.createObjectURL(await response.blob());
        $("screen").src = url;
        if (screenURL) URL.revokeObjectURL(screenURL);
        screenURL = url;
      } catch (e) {}
    }
    async function command(path, body) {
      say("");
      try { const result = await api("POST", path, body); show(result.status); setTimeout(refreshScreen, 300); }
      catch (e) { say(e.message); }
    }
    $("previous").onclick = () => command("/api/previous");
    $("next").onclick = () => command("/api/next");
    $("pause").onclick = () => command(status && status.paused ? "/api/resume" : "/api/pause");
    $("slideshow").onclick = () => command("/api/slideshow", {on: !(status && status.slideshow)});
    $("screenpower").onclick = () => command("/api/screen", {on: !(status && status.screen_on)});
    $("refresh").onclick = () => { refreshStatus(); refreshScreen(); loadPhotos(); };
    async function loadPhotos() {
      try {
        const data = await api("GET", `/api/photos?page=${page}&per_page=50`);
        const list = $("photos");
        list.replaceChildren();
        for (const p of data.photos) {
          const item = document.createElement("li");
          const label = document.createElement("span");
          label.textContent = `${p.name} · ${(p.bytes / 1048576).toFixed(1)} MB · ${new Date(p.modified * 1000).toLocaleDateString()}`;
          item.append(label);
          if (p.url) {
            const remove = document.createElement("button");
            remove.textContent = "Delete";
            remove.onclick = async () => {
              if (!confirm(`Delete ${p.name}?`)) return;
              try { await api("DELETE", p.url); loadPhotos(); } catch (e) { say(e.message); }
            };
            item.append(remove);
          }
          list.append(item);
        }
        const pages = Math.max(1, Math.ceil(data.total / data.per_page));
        $("count").textContent = `(${data.total})`;
        $("pageinfo").textContent = `${page} / ${pages}`;
        $("prevpage").disabled = page <= 1;
        $("nextpage").disabled = page >= pages;
      } catch (e) { say(e.message); }
    }
    $("prevpage").onclick = () => { page = Math.max(1, page - 1); loadPhotos(); };
    $("nextpage").onclick = () => { page += 1; loadPhotos(); };
    function upload(file) {
      const row = document.createElement("div");
      row.className = "up";
      const label = document.createElement("div");
      label.textContent = file.name;
      const bar = document.createElement("progress");
      bar.max = 1; bar.value = 0;
      row.append(label, bar);
      $("uploads").append(row);
      const form = new FormData();
      form.append("photo", file, file.name);
      const request = new XMLHttpRequest();
      request.open("POST", "/api/photos");
      request.upload.onprogress = e => { if (e.lengthComputable) bar.value = e.loaded / e.total; };
      request.onload = () => {
        let data = {};
        try { data = JSON.parse(request.responseText); } catch (e) {}
        if (request.status === 201) {
          bar.value = 1;
          label.textContent = `${file.name}: saved as ${data.saved[0].name} in ${data.folder}`;
          loadPhotos(); refreshStatus();
        } else {
          label.className = "err";
          label.textContent = `${file.name}: ${data.error || (data.refused && data.refused[0] && data.refused[0].error) || ("HTTP " + request.status)}`;
        }
      };
      request.onerror = () => { label.className = "err"; label.textContent = `${file.name}: the connection was lost`; };
      request.send(form);
    }
    $("files").onchange = e => { for (const f of e.target.files) upload(f); e.target.value = ""; };
    const drop = $("drop");
    drop.ondragover = e => { e.preventDefault(); drop.classList.add("over"); };
    drop.ondragleave = () => drop.classList.remove("over");
    drop.ondrop = e => { e.preventDefault(); drop.classList.remove("over"); for (const f of e.dataTransfer.files) upload(f); };
    refreshStatus(); refreshScreen(); loadPhotos();
    setInterval(refreshStatus, 2000);
    setInterval(refreshScreen, 2000);
    </script><script>\(RemoteSettingsPage.script)</script></body></html>
    """
}
