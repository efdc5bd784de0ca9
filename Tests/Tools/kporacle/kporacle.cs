// kporacle (MyPass test copy of ../shared/tools/kporacle, with the verbs `kdf` and `edit` and the
// KDF item options of `save`): builds KDBX fixtures with KeePass 2.x's own library (KeePassLib inside
// KeePass.exe) and dumps any KDBX file as the canonical vault manifest (JSON).
//
//   mono kporacle.exe gen OUTDIR                      build the fixture set
//   mono kporacle.exe dump FILE [--pw P] [--nopw] [--keyfile K]
//   mono kporacle.exe save FILE OUT [--pw P] [--keyfile K]   load with KeePass, save again
//   mono kporacle.exe from-xml XML OUT [--pw P] [--kdbx3]      KeePass XML to a KDBX vault
//
// Build: mcs -r:/usr/lib/keepass2/KeePass.exe -r:System.Drawing kporacle.cs
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using KeePassLib;
using KeePassLib.Collections;
using KeePassLib.Cryptography.Cipher;
using KeePassLib.Cryptography.KeyDerivation;
using KeePassLib.Keys;
using KeePassLib.Interfaces;
using KeePassLib.Security;
using KeePassLib.Serialization;

static class Json {
    public static string Str(string s) {
        if (s == null) return "null";
        var b = new StringBuilder("\"");
        foreach (char c in s) {
            switch (c) {
                case '"': b.Append("\\\""); break;
                case '\\': b.Append("\\\\"); break;
                case '\n': b.Append("\\n"); break;
                case '\r': b.Append("\\r"); break;
                case '\t': b.Append("\\t"); break;
                default:
                    if (c < 0x20) b.AppendFormat("\\u{0:x4}", (int)c); else b.Append(c);
                    break;
            }
        }
        return b.Append('"').ToString();
    }
    public static string Time(DateTime t) {
        return "\"" + t.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'") + "\"";
    }
    public static string Hex(byte[] b) { return string.Concat(b.Select(x => x.ToString("x2"))); }
    public static string Sha(byte[] b) { using (var h = SHA256.Create()) return Hex(h.ComputeHash(b)); }
    public static string Uuid(PwUuid u) { return u == null || u.Equals(PwUuid.Zero) ? "null" : "\"" + Hex(u.UuidBytes) + "\""; }
    public static string Color(System.Drawing.Color c) {
        return c.IsEmpty ? "\"\"" : "\"#" + c.R.ToString("X2") + c.G.ToString("X2") + c.B.ToString("X2") + "\"";
    }
    public static string Map(IEnumerable<KeyValuePair<string, string>> kv) {
        return "{" + string.Join(", ", kv.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => Str(p.Key) + ": " + Str(p.Value))) + "}";
    }
}

static class Oracle {
    static void Main(string[] args) {
        try {
            if (args.Length >= 2 && args[0] == "gen") Gen(args[1]);
            else if (args.Length >= 2 && args[0] == "gen-edge") GenEdge(args[1]);
            else if (args.Length >= 3 && args[0] == "from-xml") FromXml(args[1], args[2], args.Skip(3).ToArray());
            else if (args.Length >= 2 && args[0] == "dump") Console.Write(Dump(Open(args[1], args.Skip(2).ToArray())));
            else if (args.Length >= 3 && args[0] == "save") Resave(args[1], args[2], args.Skip(3).ToArray());
            else if (args.Length >= 4 && args[0] == "merge") Merge(args[1], args[2], args[3], args.Skip(4).ToArray());
            else if (args.Length >= 2 && args[0] == "kdf") Console.WriteLine(Json.Hex(KdfParameters.SerializeExt(Open(args[1], args.Skip(2).ToArray()).KdfParameters)));
            else if (args.Length >= 3 && args[0] == "edit") Edit(args[1], args[2], args.Skip(3).ToArray());
            else if (args.Length >= 2 && args[0] == "sizes") Sizes(Open(args[1], args.Skip(2).ToArray()));
            else if (args.Length >= 6 && args[0] == "diverge") Diverge(args[1], args[2], args[3], int.Parse(args[4]), int.Parse(args[5]), args.Skip(6).ToArray());
            else if (args.Length >= 4 && args[0] == "merge-dump") MergeDump(args[1], args[2], args[3], args.Skip(4).ToArray());
            else { Console.Error.WriteLine("usage: kporacle gen OUTDIR | gen-edge OUTDIR | dump FILE [--pw P|--nopw] [--keyfile K] | save FILE OUT [...] | merge LOCAL REMOTE OUT [...] | from-xml XML OUT [--pw P] [--kdbx3]"); Environment.Exit(2); }
        } catch (Exception e) {
            Console.Error.WriteLine("kporacle: " + e.GetType().Name + ": " + e.Message);
            Environment.Exit(1);
        }
    }

    // ---- opening --------------------------------------------------------
    static CompositeKey KeyFromArgs(string[] a) {
        var key = new CompositeKey();
        string pw = null; bool nopw = false; string kf = null;
        for (int i = 0; i < a.Length; i++) {
            if (a[i] == "--pw") pw = a[++i];
            else if (a[i] == "--nopw") nopw = true;
            else if (a[i] == "--keyfile") kf = a[++i];
        }
        if (!nopw) key.AddUserKey(new KcpPassword(pw ?? ""));
        if (kf != null) key.AddUserKey(new KcpKeyFile(kf));
        return key;
    }
    static PwDatabase Open(string path, string[] a) {
        var db = new PwDatabase();
        db.Open(IOConnectionInfo.FromPath(path), KeyFromArgs(a), null);
        return db;
    }
    // Import a KeePass plain-XML file and save it as a KDBX vault (Argon2d 1 MiB, or AES-KDF for --kdbx3).
    static void FromXml(string xml, string outPath, string[] a) {
        var db = new PwDatabase();
        db.New(IOConnectionInfo.FromPath(outPath), KeyFromArgs(a));
        using (var fs = File.OpenRead(xml)) new KdbxFile(db).Load(fs, KdbxFormat.PlainXml, null);
        bool v3 = a.Contains("--kdbx3");
        db.DataCipherUuid = new StandardAesEngine().CipherUuid;
        db.KdfParameters = v3 ? AesKdfP(6000) : Argon(Argon2Type.D, 1 << 20, 2, 2);
        db.SaveAs(IOConnectionInfo.FromPath(outPath), false, null);
    }

    // Options: --argon2d MEM IT PAR | --argon2id MEM IT PAR | --aeskdf ROUNDS, --aes | --chacha20, --newpw P
    static void Resave(string path, string outPath, string[] a) {
        var db = Open(path, a);
        for (int i = 0; i < a.Length; i++) {
            if (a[i] == "--argon2d" || a[i] == "--argon2id")
                db.KdfParameters = Argon(a[i] == "--argon2d" ? Argon2Type.D : Argon2Type.ID, ulong.Parse(a[i + 1]), ulong.Parse(a[i + 2]), uint.Parse(a[i + 3]));
            else if (a[i] == "--aeskdf") db.KdfParameters = AesKdfP(ulong.Parse(a[i + 1]));
            else if (a[i] == "--aes") db.DataCipherUuid = new StandardAesEngine().CipherUuid;
            else if (a[i] == "--chacha20") db.DataCipherUuid = new ChaCha20Engine().CipherUuid;
            else if (a[i] == "--newpw") db.MasterKey = Pw(a[i + 1]);
            else if (a[i] == "--kdf-secret") db.KdfParameters.SetByteArray(Argon2Kdf.ParamSecretKey, FromHex(a[i + 1]));
            else if (a[i] == "--kdf-ad") db.KdfParameters.SetByteArray(Argon2Kdf.ParamAssocData, FromHex(a[i + 1]));
            else if (a[i] == "--kdf-item") SetItem(db.KdfParameters, a[i + 1], a[i + 2], a[i + 3]);
        }
        db.SaveAs(IOConnectionInfo.FromPath(outPath), false, null);
    }

    // PwEntry.GetSize of every entry and history item: "UUID size" per line, history items
    // indented by two spaces after their entry.
    static void Sizes(PwDatabase db) {
        foreach (var e in db.RootGroup.GetEntries(true)) {
            Console.WriteLine(Json.Hex(e.Uuid.UuidBytes) + " " + e.GetSize());
            foreach (var h in e.History) Console.WriteLine("  " + Json.Hex(h.Uuid.UuidBytes) + " " + h.GetSize());
        }
    }

    static byte[] FromHex(string h) {
        var b = new byte[h.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(h.Substring(2 * i, 2), 16);
        return b;
    }
    // One VariantDictionary item of a given type: u32 u64 bool i32 i64 str bytes (hex).
    static void SetItem(KdfParameters p, string name, string type, string value) {
        switch (type) {
            case "u32": p.SetUInt32(name, uint.Parse(value)); break;
            case "u64": p.SetUInt64(name, ulong.Parse(value)); break;
            case "bool": p.SetBool(name, value == "true"); break;
            case "i32": p.SetInt32(name, int.Parse(value)); break;
            case "i64": p.SetInt64(name, long.Parse(value)); break;
            case "str": p.SetString(name, value); break;
            case "bytes": p.SetByteArray(name, FromHex(value)); break;
            default: throw new ArgumentException("unknown item type " + type);
        }
    }

    // KeePass's entry edit (what its entry dialog does on OK): the current state goes into the
    // history (CreateBackup), the fields are set, the modification time is touched, then
    // MaintainBackups trims the history with the database's HistoryMaxItems/HistoryMaxSize.
    //   --entry UUID (32 hex)  --set FIELD VALUE (repeatable)  --max-items N  --max-size N
    //   --at SECONDS  (the modification time, as seconds after 2026-01-01T00:00:00Z; default now)
    static void Edit(string path, string outPath, string[] a) {
        var db = Open(path, a);
        PwEntry e = null;
        for (int i = 0; i < a.Length; i++) {
            if (a[i] == "--entry") e = db.RootGroup.FindEntry(new PwUuid(FromHex(a[i + 1])), true);
            else if (a[i] == "--max-items") db.HistoryMaxItems = int.Parse(a[i + 1]);
            else if (a[i] == "--max-size") db.HistoryMaxSize = long.Parse(a[i + 1]);
        }
        if (e == null) throw new ArgumentException("no entry given or found");
        e.CreateBackup(null);
        for (int i = 0; i < a.Length; i++) {
            if (a[i] == "--set") {
                bool prot = e.Strings.Get(a[i + 1]) != null && e.Strings.Get(a[i + 1]).IsProtected;
                e.Strings.Set(a[i + 1], new ProtectedString(prot, a[i + 2]));
            }
        }
        e.Touch(true, false);
        for (int i = 0; i < a.Length; i++)
            if (a[i] == "--at") e.LastModificationTime = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(double.Parse(a[i + 1]));
        e.MaintainBackups(db);
        db.SaveAs(IOConnectionInfo.FromPath(outPath), false, null);
    }

    // KeePass's "Synchronize": REMOTE merged into LOCAL with PwMergeMethod.Synchronize (newer
    // modification wins, history merged, deletions and moves applied), written to OUT with LOCAL's
    // key and settings. Both files open with the same key arguments.
    static void Merge(string localPath, string remotePath, string outPath, string[] a) {
        var local = Open(localPath, a);
        var remote = Open(remotePath, a);
        local.MergeIn(remote, PwMergeMethod.Synchronize);
        local.SaveAs(IOConnectionInfo.FromPath(outPath), false, null);
    }

    // KeePass's Synchronize and a re-save, in one run: LOCAL and REMOTE merged as `merge` does, saved
    // to a temporary file and read back; OURS (a merge made by another program) saved by KeePass too
    // and read back, so that both went through the same writer. Prints
    // {"theirs": MANIFEST, "ours": MANIFEST}; both manifests' "file" is that of the KeePass save.
    static void MergeDump(string localPath, string remotePath, string oursPath, string[] a) {
        string dir = Path.Combine(Path.GetTempPath(), "kporacle-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dir);
        try {
            string theirs = Path.Combine(dir, "theirs.kdbx"), ours = Path.Combine(dir, "ours.kdbx");
            Merge(localPath, remotePath, theirs, a);
            Resave(oursPath, ours, a);
            Console.Write("{\"theirs\": " + Dump(Open(theirs, a)) + ",\n\"ours\": " + Dump(Open(ours, a)) + "}\n");
        } finally {
            Directory.Delete(dir, true);
        }
    }

    // Two copies of BASE edited the way KeePass's own commands edit a vault, with the real clock:
    // STEPS random steps, each on LOCAL, on REMOTE, or on both at once (the same entry or group
    // changed on both sides within the same second: a tie), with pauses of 0-700 ms between steps
    // so that changes fall in the same second or in later ones. Steps: edit an entry (backup into
    // the history, field set, touched, history maintained), add an entry, delete an entry (into the
    // recycle bin when it is on, else removed with a deleted-object record), move an entry, add a
    // group, edit a group's notes, delete a group (recycle bin or records for it and everything in
    // it), move a group (never into itself), rename the database. SEED makes the choice of steps
    // reproducible; the times are real. Prints one line per step.
    static void Diverge(string basePath, string localOut, string remoteOut, int seed, int steps, string[] a) {
        var rng = new Random(seed);
        var local = Open(basePath, a);
        var remote = Open(basePath, a);
        for (int i = 0; i < steps; i++) {
            int side = rng.Next(5);
            if (side == 4) {
                // A tie: the same entry (or group) changed on both sides now.
                var entries = Common(local, remote, true);
                if (entries.Count > 0 && rng.Next(4) != 0) {
                    var uuid = entries[rng.Next(entries.Count)];
                    string field = rng.Next(2) == 0 ? PwDefs.NotesField : PwDefs.UserNameField;
                    EditEntry(local, local.RootGroup.FindEntry(uuid, true), field, "local " + i);
                    EditEntry(remote, remote.RootGroup.FindEntry(uuid, true), field, "remote " + i);
                    Console.WriteLine("both: edit entry " + Json.Hex(uuid.UuidBytes) + " " + field);
                } else {
                    var groups = Common(local, remote, false);
                    if (groups.Count == 0) continue;
                    var uuid = groups[rng.Next(groups.Count)];
                    EditGroup(local.RootGroup.FindGroup(uuid, true), "local " + i);
                    EditGroup(remote.RootGroup.FindGroup(uuid, true), "remote " + i);
                    Console.WriteLine("both: edit group " + Json.Hex(uuid.UuidBytes));
                }
            } else {
                var db = side < 2 ? local : remote;
                Console.WriteLine((side < 2 ? "local: " : "remote: ") + Step(db, rng, i));
            }
            System.Threading.Thread.Sleep(rng.Next(700));
        }
        local.SaveAs(IOConnectionInfo.FromPath(localOut), false, null);
        remote.SaveAs(IOConnectionInfo.FromPath(remoteOut), false, null);
    }

    // The UUIDs of the entries (or groups below the root, recycle bin and its content aside) both
    // vaults hold.
    static List<PwUuid> Common(PwDatabase x, PwDatabase y, bool entries) {
        var outList = new List<PwUuid>();
        if (entries) {
            foreach (var e in x.RootGroup.GetEntries(true))
                if (!InBin(x, e.ParentGroup) && y.RootGroup.FindEntry(e.Uuid, true) != null) outList.Add(e.Uuid);
        } else {
            foreach (var g in x.RootGroup.GetGroups(true))
                if (!InBin(x, g) && y.RootGroup.FindGroup(g.Uuid, true) != null) outList.Add(g.Uuid);
        }
        return outList;
    }

    static bool InBin(PwDatabase db, PwGroup g) {
        for (var x = g; x != null; x = x.ParentGroup) if (x.Uuid.Equals(db.RecycleBinUuid)) return true;
        return false;
    }

    static void EditEntry(PwDatabase db, PwEntry e, string field, string value) {
        e.CreateBackup(null);
        bool prot = e.Strings.Get(field) != null && e.Strings.Get(field).IsProtected;
        e.Strings.Set(field, new ProtectedString(prot, value));
        e.Touch(true, false);
        e.MaintainBackups(db);
    }

    static void EditGroup(PwGroup g, string notes) {
        g.Notes = notes;
        g.Touch(true, false);
    }

    // The recycle bin, made as KeePass makes it on the first delete when there is none.
    static PwGroup RecycleBin(PwDatabase db) {
        var bin = db.RootGroup.FindGroup(db.RecycleBinUuid, true);
        if (bin != null) return bin;
        bin = new PwGroup(true, true, "Recycle Bin", PwIcon.TrashBin);
        bin.EnableAutoType = false; bin.EnableSearching = false; bin.IsExpanded = false;
        db.RootGroup.AddGroup(bin, true);
        db.RecycleBinUuid = bin.Uuid;
        db.RecycleBinChanged = DateTime.UtcNow;
        return bin;
    }

    static string Step(PwDatabase db, Random rng, int i) {
        var entries = db.RootGroup.GetEntries(true).Where(e => !InBin(db, e.ParentGroup)).ToList();
        var groups = new List<PwGroup> { db.RootGroup };
        groups.AddRange(db.RootGroup.GetGroups(true).Where(g => !InBin(db, g)));
        var now = DateTime.UtcNow;
        int kind = rng.Next(20);
        if (kind < 7 && entries.Count > 0) {
            var e = entries[rng.Next(entries.Count)];
            string field = new[] { PwDefs.NotesField, PwDefs.UserNameField, PwDefs.UrlField, PwDefs.PasswordField }[rng.Next(4)];
            EditEntry(db, e, field, "step " + i);
            return "edit entry " + e.Strings.ReadSafe(PwDefs.TitleField) + " " + field;
        }
        if (kind < 10) {
            var pe = new PwEntry(true, true);
            pe.Strings.Set(PwDefs.TitleField, new ProtectedString(false, "New " + i));
            pe.Strings.Set(PwDefs.UserNameField, new ProtectedString(false, "user" + i));
            pe.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, "pw" + i));
            var g = groups[rng.Next(groups.Count)];
            g.AddEntry(pe, true);
            g.Touch(true, false);
            return "add entry to " + g.Name;
        }
        if (kind < 12) {
            var g = groups[rng.Next(groups.Count)];
            g.AddGroup(new PwGroup(true, true, "Group " + i, PwIcon.Folder), true);
            g.Touch(true, false);
            return "add group to " + g.Name;
        }
        if (kind < 14 && groups.Count > 1) {
            var g = groups[1 + rng.Next(groups.Count - 1)];
            EditGroup(g, "notes " + i);
            return "edit group " + g.Name;
        }
        if (kind < 16 && entries.Count > 0) {
            var e = entries[rng.Next(entries.Count)];
            var parent = e.ParentGroup;
            parent.Entries.Remove(e);
            if (db.RecycleBinEnabled) {
                RecycleBin(db).AddEntry(e, true, true);
                e.Touch(false);
            } else {
                db.DeletedObjects.Add(new PwDeletedObject(e.Uuid, now));
            }
            return "delete entry " + e.Strings.ReadSafe(PwDefs.TitleField);
        }
        if (kind < 17 && groups.Count > 1) {
            var g = groups[1 + rng.Next(groups.Count - 1)];
            g.ParentGroup.Groups.Remove(g);
            if (db.RecycleBinEnabled) {
                RecycleBin(db).AddGroup(g, true, true);
                g.Touch(false);
            } else {
                foreach (var e in g.GetEntries(true)) db.DeletedObjects.Add(new PwDeletedObject(e.Uuid, now));
                foreach (var sub in g.GetGroups(true)) db.DeletedObjects.Add(new PwDeletedObject(sub.Uuid, now));
                db.DeletedObjects.Add(new PwDeletedObject(g.Uuid, now));
            }
            return "delete group " + g.Name;
        }
        if (kind < 18 && entries.Count > 0) {
            var e = entries[rng.Next(entries.Count)];
            var target = groups[rng.Next(groups.Count)];
            if (target == e.ParentGroup) return "no move";
            e.ParentGroup.Entries.Remove(e);
            target.AddEntry(e, true, true);
            return "move entry " + e.Strings.ReadSafe(PwDefs.TitleField) + " to " + target.Name;
        }
        if (kind < 19 && groups.Count > 2) {
            var g = groups[1 + rng.Next(groups.Count - 1)];
            var target = groups[rng.Next(groups.Count)];
            if (target == g || target == g.ParentGroup || target.IsContainedIn(g)) return "no move";
            g.ParentGroup.Groups.Remove(g);
            target.AddGroup(g, true, true);
            return "move group " + g.Name + " to " + target.Name;
        }
        db.Name = "Renamed " + i;
        db.NameChanged = now;
        return "rename database";
    }

    // ---- manifest -------------------------------------------------------
    static string FileVersion(string path) {
        var h = new byte[12];
        using (var f = File.OpenRead(path)) f.Read(h, 0, 12);
        ushort minor = BitConverter.ToUInt16(h, 8), major = BitConverter.ToUInt16(h, 10);
        return major + "." + minor;
    }
    static string CipherName(PwUuid u) {
        if (u.Equals(new StandardAesEngine().CipherUuid)) return "aes256";
        if (u.Equals(new ChaCha20Engine().CipherUuid)) return "chacha20";
        var hex = Json.Hex(u.UuidBytes);
        if (hex == "ad68f29f576f4bb9a36ad47af965346c") return "twofish";
        return hex;
    }
    static string Kdf(KdfParameters p) {
        if (p.KdfUuid.Equals(new AesKdf().Uuid))
            return "{\"type\": \"aes\", \"rounds\": " + p.GetUInt64(AesKdf.ParamRounds, 0) + "}";
        string type = p.KdfUuid.Equals(new Argon2Kdf(Argon2Type.D).Uuid) ? "argon2d"
                    : p.KdfUuid.Equals(new Argon2Kdf(Argon2Type.ID).Uuid) ? "argon2id" : Json.Hex(p.KdfUuid.UuidBytes);
        return "{\"type\": \"" + type + "\", \"memory\": " + p.GetUInt64(Argon2Kdf.ParamMemory, 0)
             + ", \"iterations\": " + p.GetUInt64(Argon2Kdf.ParamIterations, 0)
             + ", \"parallelism\": " + p.GetUInt32(Argon2Kdf.ParamParallelism, 0)
             + ", \"version\": " + p.GetUInt32(Argon2Kdf.ParamVersion, 0) + "}";
    }
    static List<string> PathOf(PwGroup g, PwGroup root) {
        var path = new List<string>();
        for (var x = g; x != null && x != root; x = x.ParentGroup) path.Insert(0, x.Name);
        return path;
    }
    static string PathJson(List<string> p) { return "[" + string.Join(", ", p.Select(Json.Str)) + "]"; }

    static string Times(ITimeLogger t) {
        return "{\"creation\": " + Json.Time(t.CreationTime) + ", \"lastModification\": " + Json.Time(t.LastModificationTime)
             + ", \"lastAccess\": " + Json.Time(t.LastAccessTime) + ", \"expiry\": " + Json.Time(t.ExpiryTime)
             + ", \"expires\": " + (t.Expires ? "true" : "false") + ", \"usageCount\": " + t.UsageCount
             + ", \"locationChanged\": " + Json.Time(t.LocationChanged) + "}";
    }

    static string Entry(PwEntry e, PwGroup root, string indent, bool withHistory) {
        var sb = new StringBuilder();
        sb.Append(indent + "{\"uuid\": " + Json.Uuid(e.Uuid) + ",\n");
        if (withHistory) sb.Append(indent + " \"path\": " + PathJson(PathOf(e.ParentGroup, root)) + ",\n");
        var fields = e.Strings.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p =>
            Json.Str(p.Key) + ": {\"value\": " + Json.Str(p.Value.ReadString()) + ", \"protected\": " + (p.Value.IsProtected ? "true" : "false") + "}");
        sb.Append(indent + " \"fields\": {" + string.Join(", ", fields) + "},\n");
        var bins = e.Binaries.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => {
            var d = p.Value.ReadData();
            return Json.Str(p.Key) + ": {\"size\": " + d.Length + ", \"sha256\": \"" + Json.Sha(d) + "\"}";
        });
        sb.Append(indent + " \"attachments\": {" + string.Join(", ", bins) + "},\n");
        sb.Append(indent + " \"tags\": [" + string.Join(", ", e.Tags.Select(Json.Str)) + "],\n");
        sb.Append(indent + " \"iconID\": " + (int)e.IconId + ", \"customIconUUID\": " + Json.Uuid(e.CustomIconUuid)
                  + ", \"foregroundColor\": " + Json.Color(e.ForegroundColor) + ", \"backgroundColor\": " + Json.Color(e.BackgroundColor)
                  + ", \"overrideURL\": " + Json.Str(e.OverrideUrl ?? "") + ",\n");
        sb.Append(indent + " \"times\": " + Times(e) + ",\n");
        sb.Append(indent + " \"customData\": " + Json.Map(e.CustomData) + ",\n");
        var assoc = e.AutoType.Associations.Select(x => "{\"window\": " + Json.Str(x.WindowName) + ", \"sequence\": " + Json.Str(x.Sequence) + "}");
        sb.Append(indent + " \"autoType\": {\"enabled\": " + (e.AutoType.Enabled ? "true" : "false") + ", \"obfuscation\": " + (int)e.AutoType.ObfuscationOptions
                  + ", \"defaultSequence\": " + Json.Str(e.AutoType.DefaultSequence) + ", \"associations\": [" + string.Join(", ", assoc) + "]}");
        if (withHistory) {
            sb.Append(",\n" + indent + " \"history\": [");
            var hs = e.History.Select(h => "\n" + Entry(h, root, indent + "  ", false));
            sb.Append(string.Join(",", hs));
            sb.Append(e.History.UCount > 0 ? "\n" + indent + " ]" : "]");
        }
        sb.Append("}");
        return sb.ToString();
    }

    static string Dump(PwDatabase db) {
        var path = db.IOConnectionInfo.Path;
        var sb = new StringBuilder("{\n");
        sb.Append("\"file\": {\"version\": \"" + FileVersion(path) + "\", \"cipher\": \"" + CipherName(db.DataCipherUuid)
                  + "\", \"kdf\": " + Kdf(db.KdfParameters) + ", \"compression\": \""
                  + (db.Compression == PwCompressionAlgorithm.GZip ? "gzip" : "none") + "\"},\n");
        var icons = db.CustomIcons.Select(i => "{\"uuid\": " + Json.Uuid(i.Uuid) + ", \"sha256\": \"" + Json.Sha(i.ImageDataPng) + "\"}");
        sb.Append("\"meta\": {\"databaseName\": " + Json.Str(db.Name) + ", \"databaseDescription\": " + Json.Str(db.Description)
                  + ", \"defaultUserName\": " + Json.Str(db.DefaultUserName) + ", \"color\": " + Json.Color(db.Color)
                  + ", \"recycleBinEnabled\": " + (db.RecycleBinEnabled ? "true" : "false") + ", \"recycleBinUUID\": " + Json.Uuid(db.RecycleBinUuid)
                  + ", \"historyMaxItems\": " + db.HistoryMaxItems + ", \"historyMaxSize\": " + db.HistoryMaxSize
                  + ", \"maintenanceHistoryDays\": " + db.MaintenanceHistoryDays
                  + ",\n  \"customData\": " + Json.Map(db.CustomData)
                  + ",\n  \"customIcons\": [" + string.Join(", ", icons) + "]},\n");
        var groups = new List<PwGroup> { db.RootGroup };
        groups.AddRange(db.RootGroup.GetFlatGroupList());
        sb.Append("\"groups\": [");
        sb.Append(string.Join(",", groups.Select(g =>
            "\n {\"uuid\": " + Json.Uuid(g.Uuid) + ", \"name\": " + Json.Str(g.Name) + ", \"path\": " + PathJson(PathOf(g, db.RootGroup))
            + ", \"notes\": " + Json.Str(g.Notes) + ", \"iconID\": " + (int)g.IconId + ", \"customIconUUID\": " + Json.Uuid(g.CustomIconUuid)
            + ", \"isExpanded\": " + (g.IsExpanded ? "true" : "false")
            + ", \"defaultAutoTypeSequence\": " + Json.Str(g.DefaultAutoTypeSequence)
            + ", \"enableAutoType\": " + Tri(g.EnableAutoType) + ", \"enableSearching\": " + Tri(g.EnableSearching)
            + ", \"lastTopVisibleEntry\": " + Json.Uuid(g.LastTopVisibleEntry)
            + ",\n  \"times\": " + Times(g) + ", \"customData\": " + Json.Map(g.CustomData) + "}")));
        sb.Append("\n],\n\"entries\": [");
        var entries = new List<string>();
        foreach (var g in groups) foreach (var e in g.Entries) entries.Add("\n" + Entry(e, db.RootGroup, " ", true));
        sb.Append(string.Join(",", entries));
        sb.Append("\n],\n\"deletedObjects\": [");
        sb.Append(string.Join(", ", db.DeletedObjects.Select(d => "{\"uuid\": " + Json.Uuid(d.Uuid) + ", \"deletionTime\": " + Json.Time(d.DeletionTime) + "}")));
        sb.Append("]\n}\n");
        return sb.ToString();
    }
    static string Tri(bool? b) { return b == null ? "null" : (b.Value ? "true" : "false"); }

    // ---- fixture generation --------------------------------------------
    static readonly DateTime T0 = new DateTime(2026, 3, 14, 15, 9, 26, DateTimeKind.Utc);

    static PwEntry NewEntry(PwGroup g, string title, string user, string pass, string url, string notes) {
        var e = new PwEntry(true, true);
        e.Strings.Set(PwDefs.TitleField, new ProtectedString(false, title));
        e.Strings.Set(PwDefs.UserNameField, new ProtectedString(false, user));
        e.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, pass));
        e.Strings.Set(PwDefs.UrlField, new ProtectedString(false, url));
        e.Strings.Set(PwDefs.NotesField, new ProtectedString(false, notes));
        g.AddEntry(e, true);
        return e;
    }

    static byte[] Bytes(int n, int seed) {
        var r = new Random(seed); var b = new byte[n]; r.NextBytes(b); return b;
    }

    // A tiny valid 1x1 PNG.
    static readonly byte[] Png = Convert.FromBase64String(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");

    static PwDatabase Rich(string name) {
        bool v3 = name.StartsWith("kdbx31") || name.StartsWith("large3");
        var db = new PwDatabase();
        var key = new CompositeKey();
        key.AddUserKey(new KcpPassword("x"));
        db.New(IOConnectionInfo.FromPath("/nonexistent/" + name + ".kdbx"), key);
        db.Name = "Fixture " + name;
        db.Description = "Built with KeePass 2.x library for the MyPass test suite";
        db.DefaultUserName = "alice";
        db.CustomData.Set("fixture.kind", "rich");
        db.HistoryMaxItems = 10;
        db.MemoryProtection.ProtectUserName = true;   // username protected in XML

        var root = db.RootGroup;
        root.Name = "Root";
        var work = new PwGroup(true, true, "Work", PwIcon.Folder); root.AddGroup(work, true);
        var email = new PwGroup(true, true, "Email", PwIcon.EMail); work.AddGroup(email, true);
        var personal = new PwGroup(true, true, "Personal", PwIcon.Home); root.AddGroup(personal, true);
        var bank = new PwGroup(true, true, "Banking", PwIcon.Money); personal.AddGroup(bank, true);
        var cards = new PwGroup(true, true, "Cards & \"Stuff\" <x>", PwIcon.Certificate); bank.AddGroup(cards, true);
        var empty = new PwGroup(true, true, "Empty group", PwIcon.Folder); root.AddGroup(empty, true);
        work.Notes = "Group notes\nline two";
        if (!v3) work.CustomData.Set("group.key", "group value");
        email.IsExpanded = false;
        email.EnableAutoType = false;
        email.DefaultAutoTypeSequence = "{USERNAME}{ENTER}";

        var iconUuid = new PwUuid(true);
        db.CustomIcons.Add(new PwCustomIcon(iconUuid, Png));
        bank.CustomIconUuid = iconUuid;

        // plain entry at root
        var e1 = NewEntry(root, "Sample Entry", "User Name", "Password", "https://keepass.info/", "Notes");
        e1.AutoType.Add(new AutoTypeAssociation("Target Window", "{USERNAME}{TAB}{PASSWORD}{TAB}{ENTER}"));

        // entry with history (two previous versions)
        var gh = NewEntry(email, "GitHub", "alice@example.com", "old-pass-1", "https://github.com/login", "");
        gh.CreateBackup(db);
        gh.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, "old-pass-2"));
        gh.CreateBackup(db);
        gh.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, "gh-Curr3nt!pass"));
        gh.Strings.Set("otp", new ProtectedString(true, "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&period=30&digits=6&algorithm=SHA1"));
        gh.Tags.Add("dev"); gh.Tags.Add("2fa");
        gh.IconId = PwIcon.World;

        // unicode and XML-hostile content, custom fields, protected custom field
        var u = NewEntry(work, "Ünïcødé ✓ 日本語 🔑", "пользователь", "pässwörd-🔒-\u05e9\u05dc\u05d5\u05dd", "http://例え.jp:8080/path?q=1&r=<2>", "Line1\r\nLine2\tTabbed\n<xml> & \"quotes\" 'apos' ]]>");
        u.Strings.Set("Custom Plain", new ProtectedString(false, "plain value"));
        u.Strings.Set("Custom Secret", new ProtectedString(true, "secret value ✓"));
        u.Strings.Set("Empty Field", new ProtectedString(false, ""));
        u.Strings.Set("PIN", new ProtectedString(true, "0000"));
        if (!v3) u.CustomData.Set("entry.key", "entry value");
        u.ForegroundColor = System.Drawing.Color.FromArgb(255, 0, 0);
        u.BackgroundColor = System.Drawing.Color.FromArgb(0, 128, 255);
        u.OverrideUrl = "cmd://firefox %1";

        // attachments: text, random binary, empty, duplicate content shared by two entries
        var att = NewEntry(personal, "With attachments", "bob", "attach-pw", "", "");
        att.Binaries.Set("hello.txt", new ProtectedBinary(false, Encoding.UTF8.GetBytes("Hello, KeePass!\n")));
        att.Binaries.Set("random.bin", new ProtectedBinary(false, Bytes(70000, 1)));
        att.Binaries.Set("empty.dat", new ProtectedBinary(false, new byte[0]));
        att.Binaries.Set("secret.key", new ProtectedBinary(true, Bytes(64, 2)));
        var att2 = NewEntry(personal, "Shares an attachment", "carol", "", "", "empty password on purpose");
        att2.Binaries.Set("hello-copy.txt", new ProtectedBinary(false, Encoding.UTF8.GetBytes("Hello, KeePass!\n")));

        // KeePass native TOTP fields, expiry, custom icon on an entry
        var card = NewEntry(cards, "Visa", "4111 1111 1111 1111", "123", "", "exp 12/30");
        card.Strings.Set("TimeOtp-Secret-Base32", new ProtectedString(true, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"));
        card.Strings.Set("TimeOtp-Length", new ProtectedString(false, "8"));
        card.Strings.Set("TimeOtp-Period", new ProtectedString(false, "60"));
        card.Strings.Set("TimeOtp-Algorithm", new ProtectedString(false, "HMAC-SHA-256"));
        card.Expires = true;
        card.ExpiryTime = new DateTime(2030, 12, 31, 23, 59, 59, DateTimeKind.Utc);
        card.CustomIconUuid = iconUuid;

        var bankE = NewEntry(bank, "Bank", "alice", "b@nk!", "https://online.bank.example/", "");
        bankE.Strings.Set(PwDefs.UserNameField, new ProtectedString(true, "alice"));

        // several entries for the flat list and search
        for (int i = 0; i < 20; i++) {
            var g = (i % 3 == 0) ? work : (i % 3 == 1) ? email : personal;
            NewEntry(g, "Site " + i.ToString("00"), "user" + i, "pw" + i, "https://site" + i + ".example.com/login", i % 2 == 0 ? "" : "note " + i);
        }

        // deleted objects
        db.DeletedObjects.Add(new PwDeletedObject(new PwUuid(true), T0));

        // recycle bin with one recycled entry
        var rb = new PwGroup(true, true, "Recycle Bin", PwIcon.TrashBin);
        rb.EnableAutoType = false; rb.EnableSearching = false;
        root.AddGroup(rb, true);
        db.RecycleBinEnabled = true;
        db.RecycleBinUuid = rb.Uuid;
        NewEntry(rb, "Old account", "olduser", "oldpass", "https://old.example/", "recycled");
        return db;
    }

    static void SaveWith(PwDatabase db, string path, CompositeKey key, PwUuid cipher, KdfParameters kdf, PwCompressionAlgorithm comp) {
        db.MasterKey = key;
        db.DataCipherUuid = cipher;
        db.KdfParameters = kdf;
        db.Compression = comp;
        db.SaveAs(IOConnectionInfo.FromPath(path), false, null);
    }
    static KdfParameters AesKdfP(ulong rounds) {
        var p = new AesKdf().GetDefaultParameters(); p.SetUInt64(AesKdf.ParamRounds, rounds); return p;
    }
    static KdfParameters Argon(Argon2Type t, ulong mem, ulong it, uint par) {
        var k = new Argon2Kdf(t); var p = k.GetDefaultParameters();
        p.SetUInt64(Argon2Kdf.ParamMemory, mem); p.SetUInt64(Argon2Kdf.ParamIterations, it); p.SetUInt32(Argon2Kdf.ParamParallelism, par);
        return p;
    }
    static CompositeKey Pw(string s) { var k = new CompositeKey(); k.AddUserKey(new KcpPassword(s)); return k; }

    static void Gen(string dir) {
        Directory.CreateDirectory(dir);
        var aes = new StandardAesEngine().CipherUuid;
        var chacha = new ChaCha20Engine().CipherUuid;
        const string PW = "correct horse battery staple";
        Func<string, string> P = n => Path.Combine(dir, n);

        SaveWith(Rich("kdbx31-aes-aeskdf"), P("kdbx31-aes-aeskdf.kdbx"), Pw(PW), aes, AesKdfP(6000), PwCompressionAlgorithm.GZip);
        SaveWith(Rich("kdbx31-aes-aeskdf-nocomp"), P("kdbx31-aes-aeskdf-nocomp.kdbx"), Pw(PW), aes, AesKdfP(1000), PwCompressionAlgorithm.None);
        SaveWith(Rich("kdbx4-aes-argon2d"), P("kdbx4-aes-argon2d.kdbx"), Pw(PW), aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);
        SaveWith(Rich("kdbx4-chacha20-argon2id"), P("kdbx4-chacha20-argon2id.kdbx"), Pw(PW), chacha, Argon(Argon2Type.ID, 4 << 20, 3, 2), PwCompressionAlgorithm.GZip);
        SaveWith(Rich("kdbx4-chacha20-aeskdf"), P("kdbx4-chacha20-aeskdf.kdbx"), Pw(PW), chacha, AesKdfP(6000), PwCompressionAlgorithm.None);
        SaveWith(Rich("kdbx4-aes-argon2d-p1"), P("kdbx4-aes-argon2d-p1.kdbx"), Pw(PW), aes, Argon(Argon2Type.D, 1 << 20, 1, 1), PwCompressionAlgorithm.GZip);

        // unicode and empty passwords
        SaveWith(Rich("kdbx4-unicode-password"), P("kdbx4-unicode-password.kdbx"), Pw("pässwörd-日本語-🔑"), aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);
        SaveWith(Rich("kdbx4-empty-password"), P("kdbx4-empty-password.kdbx"), Pw(""), aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);

        // key files: XML v2.0 made by KeePass, plus hand-made v1.0 XML, 32-byte binary, 64-hex, arbitrary bytes
        KcpKeyFile.Create(P("keyfile-v2.keyx"), null);
        File.WriteAllText(P("keyfile-v1.key"), "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<KeyFile>\n\t<Meta>\n\t\t<Version>1.00</Version>\n\t</Meta>\n\t<Key>\n\t\t<Data>"
            + Convert.ToBase64String(Bytes(32, 3)) + "</Data>\n\t</Key>\n</KeyFile>\n");
        File.WriteAllBytes(P("keyfile-binary32.key"), Bytes(32, 4));
        File.WriteAllText(P("keyfile-hex64.key"), Json.Hex(Bytes(32, 5)));
        File.WriteAllBytes(P("keyfile-arbitrary.bin"), Bytes(1000, 6));
        foreach (var kf in new[] { "keyfile-v2.keyx", "keyfile-v1.key", "keyfile-binary32.key", "keyfile-hex64.key", "keyfile-arbitrary.bin" }) {
            var k = Pw(PW); k.AddUserKey(new KcpKeyFile(P(kf)));
            var stem = Path.GetFileNameWithoutExtension(kf);
            SaveWith(Rich("kdbx4-pw-" + stem), P("kdbx4-pw-" + stem + ".kdbx"), k, aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);
        }
        var kOnly = new CompositeKey(); kOnly.AddUserKey(new KcpKeyFile(P("keyfile-v2.keyx")));
        SaveWith(Rich("kdbx4-keyfile-only"), P("kdbx4-keyfile-only.kdbx"), kOnly, aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);
        var kOnly3 = new CompositeKey(); kOnly3.AddUserKey(new KcpKeyFile(P("keyfile-v1.key")));
        SaveWith(Rich("kdbx31-keyfile-only"), P("kdbx31-keyfile-only.kdbx"), kOnly3, aes, AesKdfP(6000), PwCompressionAlgorithm.GZip);

        // a large vault for parse and save timing
        SaveWith(Large(5000, false), P("kdbx4-large-5000.kdbx"), Pw(PW), aes, Argon(Argon2Type.D, 1 << 20, 2, 2), PwCompressionAlgorithm.GZip);
        SaveWith(Large(5000, true), P("kdbx31-large-5000.kdbx"), Pw(PW), aes, AesKdfP(6000), PwCompressionAlgorithm.GZip);

        // plain XML export of the rich vault (KeePass XML format)
        var x = Rich("xml-export");
        using (var fs = File.Create(P("rich-export.xml"))) new KdbxFile(x).Save(fs, null, KdbxFormat.PlainXml, null);
    }


    // Edge cases: deep nesting, many fields, long values, odd names, old and far dates.
    static PwDatabase Edge(string name, bool v3) {
        var db = new PwDatabase();
        db.New(IOConnectionInfo.FromPath("/nonexistent/" + name + ".kdbx"), Pw("x"));
        db.Name = "Edge " + name;
        db.RootGroup.Name = "Database";
        db.RecycleBinEnabled = false;
        db.HistoryMaxItems = -1;
        var root = db.RootGroup;
        var g = root;
        for (int d = 1; d <= 24; d++) { var c = new PwGroup(true, true, "Level " + d, PwIcon.Folder); g.AddGroup(c, true); g = c; }
        NewEntry(g, "Deep entry", "deep", "deep-pw", "https://deep.example/", "24 levels down");
        var blank = new PwGroup(true, true, "   ", PwIcon.Folder); root.AddGroup(blank, true);
        var dupe1 = new PwGroup(true, true, "Same", PwIcon.Folder); root.AddGroup(dupe1, true);
        var dupe2 = new PwGroup(true, true, "Same", PwIcon.Folder); root.AddGroup(dupe2, true);
        NewEntry(dupe1, "", "", "", "", "entry with empty title");
        NewEntry(dupe2, "Twin", "a", "1", "https://twin.example/", "");
        NewEntry(dupe2, "Twin", "b", "2", "https://twin.example/", "");
        var many = NewEntry(root, "Many fields", "m", "m", "", "");
        for (int i = 0; i < 150; i++) many.Strings.Set("Field " + i.ToString("000") + (i % 10 == 0 ? " ✓" : ""), new ProtectedString(i % 3 == 0, "value " + i + new string('x', i)));
        var longE = NewEntry(root, "Long notes", "l", "l", "", new string('A', 200000) + "\nend");
        longE.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, new string('p', 5000)));
        var big = NewEntry(root, "Big attachment", "b", "b", "", "");
        big.Binaries.Set("big.bin", new ProtectedBinary(false, Bytes(3 * 1024 * 1024, 9)));
        big.Binaries.Set("zeros.bin", new ProtectedBinary(false, new byte[1 << 20]));
        var odd = NewEntry(root, "Odd ]]> <![CDATA[ &amp; &#x41;", "\u200Buser\u200D", "\U0001F468\u200D\U0001F469\u200D\U0001F467 \u202Eevil", "HTTPS://Example.COM:443/Path/", " leading and trailing spaces ");
        odd.Strings.Set("otp", new ProtectedString(true, "otpauth://totp/ACME%20Co:john.doe%40email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30"));
        odd.Tags.Add("tag with space"); odd.Tags.Add("ünï");
        var dates = NewEntry(root, "Dates", "d", "d", "", "");
        dates.CreationTime = new DateTime(1, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        dates.LastModificationTime = new DateTime(1999, 12, 31, 23, 59, 59, DateTimeKind.Utc);
        dates.Expires = true;
        dates.ExpiryTime = new DateTime(9999, 12, 31, 23, 59, 59, DateTimeKind.Utc);
        dates.UsageCount = 123456789;
        var steam = NewEntry(root, "Steam", "gamer", "s", "https://store.steampowered.com/", "");
        steam.Strings.Set("otp", new ProtectedString(true, "otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam"));
        var hist = NewEntry(root, "History with attachments", "h", "v1", "", "");
        hist.Binaries.Set("a.txt", new ProtectedBinary(false, Encoding.UTF8.GetBytes("version one")));
        for (int v = 2; v <= 12; v++) {
            hist.CreateBackup(null);
            hist.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, "v" + v));
            hist.Binaries.Set("a.txt", new ProtectedBinary(false, Encoding.UTF8.GetBytes("version " + v)));
        }
        if (!v3) {
            root.CustomData.Set("root.k", "root v");
            hist.CustomData.Set("k", "<v & \"w\">");
        }
        db.DeletedObjects.Add(new PwDeletedObject(new PwUuid(true), new DateTime(2020, 2, 29, 12, 0, 0, DateTimeKind.Utc)));
        db.DeletedObjects.Add(new PwDeletedObject(new PwUuid(true), new DateTime(2021, 1, 1, 0, 0, 0, DateTimeKind.Utc)));
        return db;
    }

    static void GenEdge(string dir) {
        Directory.CreateDirectory(dir);
        var aes = new StandardAesEngine().CipherUuid;
        var chacha = new ChaCha20Engine().CipherUuid;
        const string PW = "Tr0ub4dor&3 ünïcödé";
        Func<string, string> P = n => Path.Combine(dir, n);
        SaveWith(Edge("edge-kdbx4-argon2id-chacha20", false), P("edge-kdbx4-argon2id-chacha20.kdbx"), Pw(PW), chacha, Argon(Argon2Type.ID, 2 << 20, 2, 3), PwCompressionAlgorithm.GZip);
        SaveWith(Edge("edge-kdbx31-aes", true), P("edge-kdbx31-aes.kdbx"), Pw(PW), aes, AesKdfP(3001), PwCompressionAlgorithm.GZip);
        File.WriteAllText(P("edge-keyfile-v2-spaces.keyx"), "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<KeyFile>\r\n  <Meta>\r\n    <Version>2.0</Version>\r\n  </Meta>\r\n  <Key>\r\n    <Data Hash=\"" 
            + "PLACEHOLDER" + "\">\r\n      " + "00112233 44556677 8899AABB CCDDEEFF\r\n      00112233 44556677 8899AABB CCDDEEFF" + "\r\n    </Data>\r\n  </Key>\r\n</KeyFile>\r\n");
        var kd = new byte[32]; for (int i = 0; i < 32; i++) kd[i] = (byte)((i % 16) * 0x11);
        byte[] h; using (var s = SHA256.Create()) h = s.ComputeHash(kd);
        var txt = File.ReadAllText(P("edge-keyfile-v2-spaces.keyx")).Replace("PLACEHOLDER", Json.Hex(h).Substring(0, 8).ToUpperInvariant());
        File.WriteAllText(P("edge-keyfile-v2-spaces.keyx"), txt);
        var k = new CompositeKey(); k.AddUserKey(new KcpKeyFile(P("edge-keyfile-v2-spaces.keyx")));
        SaveWith(Edge("edge-kdbx4-keyfile-only", false), P("edge-kdbx4-keyfile-only.kdbx"), k, aes, Argon(Argon2Type.D, 1 << 20, 1, 1), PwCompressionAlgorithm.None);
    }

    static PwDatabase Large(int n, bool v3) {
        var db = Rich((v3 ? "large3-" : "large-") + n);
        var root = db.RootGroup;
        var groups = new List<PwGroup>();
        for (int i = 0; i < 50; i++) {
            var g = new PwGroup(true, true, "Team " + i, PwIcon.Folder); root.AddGroup(g, true); groups.Add(g);
            for (int j = 0; j < 3; j++) { var s = new PwGroup(true, true, "Project " + i + "." + j, PwIcon.Folder); g.AddGroup(s, true); groups.Add(s); }
        }
        var r = new Random(42);
        for (int i = 0; i < n; i++) {
            var g = groups[r.Next(groups.Count)];
            var e = NewEntry(g, "Account " + i, "user" + i + "@example.org", "P@ss-" + r.Next() + "-" + i, "https://host" + (i % 700) + ".example.net/login", i % 5 == 0 ? "Some notes for entry " + i + "\nsecond line" : "");
            if (i % 10 == 0) e.Strings.Set("otp", new ProtectedString(true, "otpauth://totp/X:u" + i + "?secret=JBSWY3DPEHPK3PXP&issuer=X"));
            if (i % 7 == 0) { e.CreateBackup(db); e.Strings.Set(PwDefs.PasswordField, new ProtectedString(true, "changed-" + i)); }
            if (i % 250 == 0) e.Binaries.Set("doc" + i + ".bin", new ProtectedBinary(false, Bytes(4096, i)));
        }
        return db;
    }
}
