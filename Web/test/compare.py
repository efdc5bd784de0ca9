"""Compares what the page showed (report.json from Web/test/check.js) with mypass, KeePass
(kporacle dump) and keepassxc-cli on the same files; prints one line per check and
`web: N/N checks` last. Exit status 1 when a check failed."""
import json
import os
import sys

work = sys.argv[1]
report = json.load(open(os.path.join(work, "report.json")))
results = []


def load(name):
    try:
        return json.load(open(os.path.join(work, name)))
    except Exception as error:  # the tool failed: its output is not JSON
        return {"unreadable": str(error)}


def text(name):
    return open(os.path.join(work, name)).read()


def check(name, passed, detail=""):
    results.append(bool(passed))
    print(("ok   " if passed else "FAIL ") + name + ("" if passed or not detail else ": " + detail))


def as_shown(items):
    """mypass ls --json items as the page's list shows them."""
    return [{"uuid": i["uuid"], "title": i["title"], "username": i["username"], "path": " › ".join(i["path"])}
            for i in items]


if report.get("failure"):
    check("the page driver ran to the end", False, report["failure"])

check("demo vault opens in the page", report.get("demoOpen", {}).get("error") == "", str(report.get("demoOpen")))
check("flat list with breadcrumbs = mypass ls", report.get("demoList") == as_shown(load("ls.json")),
      json.dumps(report.get("demoList"))[:300])
check("search 'example' = mypass ls --search example", report.get("searchExample") == as_shown(load("ls-example.json")))
check("search '2FA' (a tag) = mypass ls --search 2FA", report.get("searchTag") == as_shown(load("ls-2fa.json")))
groups = load("groups.json")
check("group picker = mypass groups (every group below the root, by path)",
      report.get("groupPicker") == [{"uuid": g["uuid"], "path": " › ".join(g["path"])} for g in groups if g["path"]]
      and report.get("groupsJSON") == groups, json.dumps(report.get("groupPicker"))[:300])
check("group Work picked = mypass ls --group Work (its subgroups too)", report.get("groupWork") == as_shown(load("ls-work.json"))
      and len(report.get("groupWork", [])) > len(report.get("groupWorkEmail", [])) > 0, json.dumps(report.get("groupWork"))[:300])
check("group Work/Email picked = mypass ls --group Work/Email", report.get("groupWorkEmail") == as_shown(load("ls-work-email.json")))
check("group Personal and search 'example' = mypass ls --group Personal --search example",
      report.get("groupPersonalSearch") == as_shown(load("ls-personal-example.json"))
      and 0 < len(report.get("groupPersonalSearch", [])) < len(report.get("searchExample", [])))
check("'All groups' picked again = the whole list", report.get("groupAll") == report.get("demoList"))
show = load("show.json")
shown = report.get("githubShown", {})
check("entry fields shown = mypass show --reveal",
      all(shown.get(name) == field["value"] for name, field in show.get("fields", {}).items())
      and shown.get("Path") == "/".join(show.get("path", []) + []),
      json.dumps(shown)[:300])
check("TOTP code at 1700000000 = mypass show --time", shown.get("TOTP") == show.get("totp", {}).get("code"),
      f"{shown.get('TOTP')} against {show.get('totp')}")
entry = report.get("githubEntry", {})
keys = ["uuid", "title", "username", "url", "path", "tags", "fields", "history", "totp"]
check("entry JSON of the ES module = mypass show --json --reveal",
      all(entry.get(k) == show.get(k) for k in keys),
      str([k for k in keys if entry.get(k) != show.get(k)]))
edited = report.get("editedList", [])
check("edit and new entry appear in the list",
      any(i["title"] == "GitHub" and i["username"] == "sam-web" for i in edited)
      and any(i["title"] == "Added in the browser" and i["path"] == "" for i in edited))
dump = load("saved-dump.json")
entries = dump.get("entries", []) if isinstance(dump, dict) else []
github = [e for e in entries if e["fields"].get("Title", {}).get("value") == "GitHub"]
check("saved copy opens in KeePass (kporacle dump) with the edit and its history",
      len(github) == 1 and github[0]["fields"]["UserName"]["value"] == "sam-web" and len(github[0]["history"]) == 1
      and any(e["fields"].get("Title", {}).get("value") == "Added in the browser" for e in entries),
      text("saved-dump.json")[:300])
check("saved copy opens in keepassxc-cli: GitHub's user name", text("kxc-show.txt").strip() == "sam-web",
      text("kxc-show.txt")[:300])
check("saved copy opens in keepassxc-cli: the new entry", "Added in the browser" in text("kxc-ls.txt").splitlines(),
      text("kxc-ls.txt")[:300])
check("saved copy reopened in the page = mypass ls of it",
      report.get("savedReopen", {}).get("error") == "" and report.get("savedList") == as_shown(load("ls-saved.json")))
check("Argon2d 64 MiB vault opens in the page = mypass ls",
      report.get("argon2Open", {}).get("error") == "" and report.get("argon2List") == as_shown(load("ls-argon2.json")),
      str(report.get("argon2Open")))
first, again = report.get("heapArgon2", {}), report.get("heapArgon2Again", {})
check("reopening it reuses the matrix's block (memory grows by at most 2 MiB, not 64)",
      first.get("memory") and 0 <= again.get("memory", 0) - first["memory"] <= (2 << 20), f"{first} then {again}")
check("memory after opening it stays under 64 MiB + 16 MiB", 0 < first.get("memory", 0) <= (80 << 20), str(first))
check("wrong password: wrongKey shown", report.get("wrongPassword", {}).get("error", "").startswith("wrongKey:"),
      str(report.get("wrongPassword")))
check("damaged file: corruptedFile shown", report.get("damaged", {}).get("error", "").startswith("corruptedFile:"),
      str(report.get("damaged")))
check("not a vault: unsupported shown", report.get("notKdbx", {}).get("error", "").startswith("unsupported:"),
      str(report.get("notKdbx")))
check("Argon2 memory of 3 GiB in the header: limitExceeded shown, memory not grown",
      report.get("hugeArgon2", {}).get("error", "").startswith("limitExceeded:"), str(report.get("hugeArgon2")))
check("64 MiB vault with memory capped at 48 MiB: outOfMemory shown, no trap, memory under the cap",
      report.get("cappedArgon2", {}).get("error", "").startswith("outOfMemory:")
      and report.get("heapCapped", {}).get("memory", 1 << 40) <= (48 << 20), f"{report.get('cappedArgon2')} {report.get('heapCapped')}")
check("the module still opens the demo vault after the errors",
      report.get("afterErrors", {}).get("error") == "" and report.get("afterErrorsCount") == 7)
check("protected values are not in clear in wasm memory while the vault is open",
      report.get("secretInMemoryWhileOpen") is False)
check("an ordinary value is in wasm memory while the vault is open (the scan finds what is there)",
      report.get("notesInMemoryWhileOpen") is True)
check("after lock no value of the vault is left in wasm memory (passwords, token, notes, the edit)",
      report.get("secretInMemoryAfterLock") is False)
try:
    wall, user, system = (float(x) for x in text("native-time.txt").split())
    native = f"native mypass ls {wall * 1000:.0f} ms wall, {(user + system) * 1000:.0f} ms CPU"
except Exception:
    native = "native mypass ls not timed"
print(f"web: Argon2d 64 MiB vault opened in the page in {report.get('argon2Open', {}).get('openMs')} ms"
      f" and {report.get('argon2Reopen', {}).get('openMs')} ms (one thread); {native}")
print(f"web: {sum(results)}/{len(results)} checks")
sys.exit(0 if all(results) else 1)
