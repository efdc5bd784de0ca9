/// The specification of every `mypass` command: names, arguments, options and help.
enum CommandSpecs {
    /// `--keyfile`, `--no-password`, `--quiet`, the agent, the KDF limit and the hardware key
    /// (`--yubikey` and the like), on every command that opens a vault.
    static let keyOptions: [OptionSpec] = [
        .option("keyfile", short: "k", "path", "Key file to combine with the master password (or to use alone with --no-password)."),
        .flag("no-password", "Open with the key file alone: do not read a master password."),
        .flag("quiet", short: "q", "Silence the password prompts, progress and notes (errors and warnings still show)."),
        .flag("no-agent", "Do not use the agent's unlocked keys (as MYPASS_NO_AGENT=1)."),
        .option("max-kdf-rounds", "n", "Open a vault whose AES-KDF asks for more than 200,000,000 rounds (the default limit), up to n."),
    ] + ChallengeResponseOptions.specs

    static let vault = PositionalSpec(
        name: "vault", help: "The KeePass vault file (.kdbx); may be left out when MYPASS_VAULT or the config file names one.")
    static let entry = PositionalSpec(
        name: "entry", help: "An entry: its path (Work/Email/GitHub; \\/ is a / in a name, \\\\ a backslash), its title alone when no other entry outside the recycle bin has it (GitHub), or its UUID (32 hex digits).")

    /// Options shared by `add` and `edit`.
    static let entryEditOptions: [OptionSpec] = [
        .option("username", "text", "The user name."),
        .option("url", "url", "The URL."),
        .option("notes", "text", "The notes."),
        .option("tag", "tag", repeatable: true, "A tag; replaces the entry's tags (give --tag '' to clear them)."),
        .option("expires", "date", "Expiry: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ (UTC), or 'never'."),
        .option("field", "name=value", repeatable: true, "A custom field, in clear (an empty value removes a custom field)."),
        .option("protected-field", "name=value", repeatable: true, "A custom field kept protected (hidden)."),
        .option("protected-field-prompt", "name", repeatable: true,
                "Read a protected field's value like a password (after the master and entry passwords), not from the command line."),
        .flag("password-prompt", "Read the entry's password like the master password, after it (asked twice on a terminal, also when the agent holds the vault)."),
        .flag("generate", "Set a generated password (see --length and the character-class flags)."),
        .option("attach", "file", repeatable: true, "Attach a file under its own name (replaces one with that name)."),
    ] + generatorOptions

    /// The password generator's options (`generate`, and `--generate` of add/edit).
    static let generatorOptions: [OptionSpec] = [
        .option("length", "n", "Length of a generated password (default 20)."),
        .flag("lower", "Use lowercase letters."),
        .flag("upper", "Use uppercase letters."),
        .flag("digits", "Use digits."),
        .flag("symbols", "Use symbols and brackets. Without any class flag: letters and digits."),
        .flag("exclude-similar", "Leave out look-alike characters (O 0 I l 1 | B 8 G 6 S 5 Z 2)."),
        .option("words", "n", "A diceware passphrase of N words from the EFF large wordlist instead (12.9 bits per word)."),
        .option("separator", "text", "The text between the words of --words (default: a space)."),
    ]

    static let info = CommandSpec(
        name: "info", abstract: "Show the vault's format, cipher, KDF, compression and counts.",
        positionals: [vault], options: keyOptions)

    static let ls = CommandSpec(
        name: "ls", abstract: "List the entries, one per line: title, user name and group breadcrumb.",
        discussion: """
            --group and --search together list the entries that satisfy both. Entries in the
            recycle bin are listed only when its group is selected. The breadcrumb (Work > Email)
            is for reading; commands take paths with / (Work/Email/GitHub), as --paths prints them
            (a / inside a name is written \\/, a backslash \\\\). A GROUP after the vault is one
            more --group.
            """,
        positionals: [vault, PositionalSpec(name: "group", help: "Only entries in this group and its subgroups (as --group).", isOptional: true)],
        options: [
            .option("group", "group", repeatable: true, "Only entries in this group and its subgroups (Work/Email)."),
            .option("search", "text", "Only entries whose title, user name, URL or tags contain the text."),
            .flag("json", "Print JSON: an array of {uuid, title, username, url, path, tags}."),
            .flag("paths", "Print each entry's path as commands take it (Work/Email/GitHub), one per line (a control character in a name shows as a space: give such an entry by its UUID, from --json)."),
        ] + keyOptions)

    static let groups = CommandSpec(
        name: "groups", abstract: "Show the group tree.",
        positionals: [vault],
        options: [
            .flag("json", "Print JSON: an array of {uuid, name, path, entries}."),
            .flag("paths", "Print each group's path as commands take it (Work/Email), one per line, the root left out."),
        ] + keyOptions)

    static let show = CommandSpec(
        name: "show", abstract: "Show an entry's fields and attachments; protected values and the TOTP code only when asked.",
        positionals: [vault, entry],
        options: [
            .flag("reveal", "Show protected values (the password, the current TOTP code...) instead of hiding them."),
            .flag("totp", short: "t", "Show the current TOTP code (as keepassxc-cli show -t); other protected values stay hidden."),
            .option("field", "name", "Print this field's value alone (protected values included; the name in any case: username)."),
            .flag("json", "Print JSON."),
            .option("time", "unix-seconds", "Compute the TOTP code at this time instead of now."),
        ] + keyOptions)

    static let add = CommandSpec(
        name: "add", abstract: "Add an entry: PATH/TITLE names its group and title.",
        positionals: [vault, PositionalSpec(name: "path", help: "Group path and title of the new entry (Work/GitHub).")],
        options: entryEditOptions + keyOptions)

    static let edit = CommandSpec(
        name: "edit", abstract: "Change an entry; its previous state goes to its history.",
        positionals: [vault, entry],
        options: [.option("title", "text", "The new title.")] + entryEditOptions + keyOptions)

    static let rm = CommandSpec(
        name: "rm", abstract: "Delete an entry: to the recycle bin, or for good when already there or with --permanent.",
        positionals: [vault, entry],
        options: [.flag("permanent", "Delete for good, skipping the recycle bin.")] + keyOptions)

    static let mv = CommandSpec(
        name: "mv", abstract: "Move an entry to another group.",
        positionals: [vault, entry, PositionalSpec(name: "group", help: "The destination group's path ('' or / for the root).")],
        options: keyOptions)

    static let mkdir = CommandSpec(
        name: "mkdir", abstract: "Create a group (its parent must exist).",
        positionals: [vault, PositionalSpec(name: "path", help: "The new group's path (Work/Projects).")],
        options: keyOptions)

    static let rmdir = CommandSpec(
        name: "rmdir", abstract: "Delete a group and its subtree: to the recycle bin, or for good.",
        positionals: [vault, PositionalSpec(name: "path", help: "The group's path.")],
        options: [.flag("permanent", "Delete for good, skipping the recycle bin.")] + keyOptions)

    static let browse = CommandSpec(
        name: "browse", abstract: "Browse the vault full screen: groups, search, entries, detail; add, edit, delete.",
        discussion: """
            The app's screens in the terminal (80x24 at least): the group tree with checkboxes, the
            search line (/), the flat list and the selected entry. ? shows the keys. Copies are
            cleared from the clipboard after 30 s; the view locks itself after --lock-after seconds
            without a key (default 300; 0: never) and every change is saved at once.

            --match URL opens on what AutoFill would offer for URL (suggestions first, then every
            entry); Enter prints the chosen entry's path (with --json: its uuid, title, user name,
            URL and path) and copies its password; Esc exits with 5.

            Needs a terminal on standard input and output (exit 2 otherwise, and for TERM=dumb).
            """,
        positionals: [vault],
        options: [
            .option("match", "url", "Open on the AutoFill view for this URL or domain; Enter prints and copies the choice."),
            .flag("json", "With --match: print the choice as JSON."),
            .option("lock-after", "seconds", "Lock after this many seconds without a key (default 300; 0: never)."),
        ] + keyOptions)

    static let totp = CommandSpec(
        name: "totp", abstract: "Print the entry's current TOTP code (seconds left on stderr).",
        positionals: [vault, entry],
        options: [.option("time", "unix-seconds", "Compute the code at this time instead of now.")] + keyOptions)

    static let match = CommandSpec(
        name: "match", abstract: "Show what AutoFill suggests for a URL or domain, best first.",
        discussion: """
            Exit code 0 when there is at least one suggestion, 5 when there is none (so that a
            script can branch on it); the other codes as for every command.

            Opens the vault as the AutoFill extension does: one streaming pass that keeps titles,
            user names, URLs, passwords and OTP settings, never attachments, history or icons.
            --budget refuses, before the key derivation runs, a vault whose Argon2 memory plus a
            12 MiB working margin exceeds SIZE (the extension's limit is about 50MB).
            """,
        positionals: [vault, PositionalSpec(name: "service", help: "A URL (https://github.com/login) or a domain (github.com).")],
        options: [
            .flag("all", "Also list the other entries, after the suggestions."),
            .flag("json", "Print {\"suggestions\": [...], \"others\": [...]} (others only with --all)."),
            .option("budget", "size", "Memory budget: bytes, or a number with KB, MB, GB, KiB, MiB or GiB (50MB)."),
        ] + keyOptions)

    static let attachmentList = CommandSpec(
        name: "attachment ls", abstract: "List an entry's attachments: name and size.",
        positionals: [vault, entry],
        options: [.flag("json", "Print JSON: an array of {name, size} (size in bytes).")] + keyOptions)

    static let attachmentExport = CommandSpec(
        name: "attachment export", abstract: "Write an attachment to a file (never over one without --force), or to stdout without FILE.",
        positionals: [vault, entry, PositionalSpec(name: "name", help: "The attachment's name."),
                      PositionalSpec(name: "file", help: "Where to write it (default: standard output).", isOptional: true)],
        options: [.flag("force", "Replace FILE when it exists.")] + keyOptions)

    static let attachmentImport = CommandSpec(
        name: "attachment import", abstract: "Attach a file to an entry under NAME (replacing one with that name).",
        positionals: [vault, entry, PositionalSpec(name: "name", help: "The attachment's name."),
                      PositionalSpec(name: "file", help: "The file to attach.")],
        options: keyOptions)

    static let attachmentRemove = CommandSpec(
        name: "attachment rm", abstract: "Remove an attachment from an entry.",
        positionals: [vault, entry, PositionalSpec(name: "name", help: "The attachment's name.")],
        options: keyOptions)

    static let attachment = CommandSpec(
        name: "attachment", abstract: "List, export, import or remove an entry's attachments.",
        subcommands: [attachmentList, attachmentExport, attachmentImport, attachmentRemove])

    static let export = CommandSpec(
        name: "export", abstract: "Print the whole vault: the JSON manifest, KeePass's plain XML or KeePassXC's CSV (secrets in clear).",
        positionals: [vault],
        options: [.option("format", "json|xml|csv", "json (the vault manifest, default), xml (KeePass 2.x XML) or csv (KeePassXC's layout).")] + keyOptions)

    static let generate = CommandSpec(
        name: "generate", abstract: "Print a password from the generator.",
        discussion: """
            Each class asked for (--lower, --upper, --digits, --symbols) gives at least one
            character; the others are drawn uniformly from all of them.
            """,
        options: generatorOptions)

    static let completion = CommandSpec(
        name: "completion", abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            bash: eval "$(mypass completion bash)" (or save it in ~/.local/share/bash-completion/completions/mypass);
            zsh: mypass completion zsh > ~/.zfunc/_mypass (a directory in $fpath); fish: mypass completion fish >
            ~/.config/fish/completions/mypass.fish. Entry paths (<entry>) and group paths (<group>, <path>,
            --group) are completed when the vault opens without a prompt (the agent holds it, or a key file
            with --no-password), in the form commands take them (CI\\/CD/deploy key goes in quoted for the
            shell); nothing is ever asked while completing. Options complete with the values they list
            (--format, --kdf, --cipher, --from...), key files and other file arguments with file names.
            """,
        positionals: [PositionalSpec(name: "shell", help: "bash, zsh or fish.")])

    static let merge = CommandSpec(
        name: "merge", abstract: "Merge another copy of the vault into it, with KeePass's Synchronize rules.",
        discussion: """
            OTHER's changes are merged into VAULT, which is then saved: objects match by UUID, the
            newer change wins and the older state goes into the entry's history, moves and deletions
            (of either side) apply, nothing changed after a deletion is lost. The change log (added,
            updated, moved, deleted, conflict; path and UUID) goes to stdout. OTHER's password is read
            after VAULT's, the same way.

            With --conflicts, the conflict copies that sync engines left beside VAULT are merged
            instead (Syncthing's NAME.sync-conflict-*, Dropbox's and Nextcloud's "NAME (conflicted
            copy ...)", Resilio's NAME.Conflict): each one that is the same vault (same root group)
            and opens with VAULT's key (or with --other-keyfile, or a password asked for) is merged,
            VAULT is saved once, and the merged copies are removed (--keep keeps them). Copies whose
            names an ordinary file could have (OneDrive's NAME-HOST, iCloud's "NAME 2") are merged only
            when given as OTHER, and never removed. A copy that does not open or is another vault is
            left and named; the others are still merged, and the exit status is 1.
            """,
        positionals: [vault, PositionalSpec(name: "other", help: "The other copy (.kdbx) to merge in; it is not changed.",
                                            optionalWithFlag: "conflicts")],
        options: [
            .option("other-keyfile", "path", "Key file of OTHER (with --conflicts: of the copies VAULT's key does not open)."),
            .flag("other-no-password", "Open OTHER with its key file alone."),
            .flag("same-credentials", "Open OTHER with VAULT's password and key file (no second prompt)."),
            .flag("conflicts", "Merge the conflict copies beside VAULT (and OTHER, when given), then remove them."),
            .flag("keep", "With --conflicts: keep the merged copies."),
            .flag("dry-run", "Print the change log; write nothing."),
            .flag("json", "Print {vault, other, dryRun, saved, changes: [{kind, object, uuid, path, note}]}."),
        ] + keyOptions)

    static let unlock = CommandSpec(
        name: "unlock", abstract: "Unlock a vault once: the agent keeps its keys, later commands ask nothing.",
        discussion: """
            Asks for the key, checks that it opens the vault and hands the composite key and the
            transformed key to the agent ('mypass agent', started on demand). Later commands on the
            vault ask nothing and skip the KDF until the timeout, counted from the last use, ends.
            The password itself is never kept, nothing is written to disk.
            """,
        positionals: [vault],
        options: [
            .option("timeout", "seconds", "Forget the vault after this long unused (default 900, at most 604800)."),
        ] + keyOptions.filter { $0.long != "no-agent" })

    static let lock = CommandSpec(
        name: "lock", abstract: "Make the agent forget a vault's keys, or every vault's.",
        positionals: [PositionalSpec(name: "vault", help: "The vault to lock (default: all).", isOptional: true)])

    static let status = CommandSpec(
        name: "status", abstract: "List the vaults the agent holds, the seconds left on each and the SSH keys it serves (no secrets).",
        options: [.flag("json", "Print JSON: an array of {vault, secondsLeft, ssh: [{socket, keys: [{type, bits, fingerprint, comment, confirm, secondsLeft}]}]}.")])

    static let agent = CommandSpec(
        name: "agent", abstract: "Serve unlocked vaults' keys on a per-user socket (started by unlock).")

    static let clip = CommandSpec(
        name: "clip", abstract: "Copy an entry's password (or a field, or the TOTP code) to the clipboard for a while.",
        discussion: """
            Uses wl-copy, xclip or xsel, whichever is present; the value goes to it through a pipe,
            never on a command line. After the timeout the clipboard is cleared, but only if it
            still holds what was copied (its SHA-256 is compared): something copied meanwhile stays.
            --osc52 writes the terminal's clipboard escape to standard output instead (cleared
            after the timeout with an empty escape when standard output is a terminal).
            """,
        positionals: [vault, entry],
        options: [
            .option("field", "name", "Copy this field instead of the password (the name in any case: username)."),
            .flag("totp", "Copy the current TOTP code."),
            .option("timeout", "seconds", "Clear the clipboard after this long (default 30; 0: never)."),
            .flag("osc52", "Write the OSC 52 terminal escape instead of using a clipboard tool."),
            .option("time", "unix-seconds", "With --totp, the code at this time instead of now."),
        ] + keyOptions)

    static let unclip = CommandSpec(
        name: "unclip", abstract: "Clear the clipboard later if it still holds what clip put there (started by clip).",
        options: [
            .option("timeout", "seconds", "Seconds to wait before clearing (default 30)."),
            .option("tty", "path", "Clear this terminal's clipboard with an empty OSC 52 escape instead."),
        ])
    static let create = CommandSpec(
        name: "create", abstract: "Create a new vault (KeePass 2's defaults, the KDF calibrated to 1 s); never over a file.",
        discussion: """
            The new vault gets a root group named after it (or --name) and the recycle bin KeePass
            creates on the first delete. The directory VAULT goes into (and --generate-keyfile's) is
            checked first: a missing or read-only one fails before anything is asked or calibrated.
            The password is asked twice on a terminal; from a pipe it is the first line (a repeated
            second line is taken as the confirmation).
            """,
        positionals: [vault],
        options: [
            .option("keyfile", "path", "An existing key file to combine with the password (or to use alone with --no-password)."),
            .option("generate-keyfile", "path", "Write a new key file (KeePass XML 2.0 with its hash) and use it."),
            .flag("no-password", "No master password: the key file alone opens the vault."),
            .option("name", "text", "The database and root group name (default: the file name without extension)."),
        ] + FileSettingsOptions.specs + ChallengeResponseOptions.specs)

    static let passwd = CommandSpec(
        name: "passwd", abstract: "Change the vault's master password, key file or hardware key; the old key no longer opens it.",
        discussion: """
            The current key is read as for every command; then the new password, asked twice on a
            terminal. From a pipe: the first line is the current password, the next the new one, and
            a repeated line after it is taken as the confirmation. Without --new-keyfile or
            --remove-keyfile, the current --keyfile stays part of the key; likewise the current
            hardware key (--yubikey and the like) stays unless --new-yubikey,
            --new-challenge-response-secret-file, --new-challenge-response-command or
            --remove-challenge-response is given. A new hardware key is asked for the new challenge
            when the vault is saved. The current key is asked even when the agent holds the vault;
            the agent then gets the new key (for the same timeout), and a note says so.
            """,
        positionals: [vault],
        options: [
            .option("new-keyfile", "path", "Use this key file in the new key."),
            .flag("remove-keyfile", "No key file in the new key."),
            .flag("new-no-password", "No password in the new key (a key file or a hardware key is then needed)."),
        ] + ChallengeResponseOptions.newSpecs + keyOptions)

    static let importFile = CommandSpec(
        name: "import", abstract: "Import another manager's export into the vault (as a group named after the file), or into a new vault.",
        discussion: """
            FILE is read whole and checked before anything is asked or written: a bad file gives an
            error naming its line and the vault is untouched. Without --from the format comes from
            FILE's extension (.xml, .csv, .json) and its first bytes (an XML declaration or
            <KeePassFile>, a JSON object, KeePassXC's CSV header), the content winning; a note
            says which was chosen. FILE '-' is standard input: the password is then asked on the
            terminal, and the group is named 'Import' unless --group names it. A Bitwarden export's
            passkeys become KeePassXC passkey fields (one per entry); a warning names each item
            whose passkey could not be kept. With --create, VAULT is made as 'mypass create' makes
            it (the same options) and the entries go below its root.
            """,
        positionals: [vault, PositionalSpec(name: "file", help: "The export to read ('-': standard input).")],
        options: [
            .option("from", "keepass-xml|keepassxc-csv|bitwarden-json", "The export's format (default: detected from FILE's extension and content)."),
            .flag("create", "Create VAULT (it must not exist) instead of importing into it."),
            .option("generate-keyfile", "path", "With --create: write a new key file and use it."),
            .option("name", "text", "With --create: the database name (default: VAULT's file name)."),
            .option("group", "name", "Without --create: the new group's name (default: FILE's name without extension; 'Import' for standard input)."),
        ] + FileSettingsOptions.specs + keyOptions)

    static let settings = CommandSpec(
        name: "settings", abstract: "Show the vault's file and database settings; with options, change them.",
        discussion: """
            --unlock-time calibrates the KDF cost on this machine and applies it; switching to another
            KDF without --iterations or --rounds calibrates to 1 s. KDBX 3.1 holds AES-KDF only.
            """,
        positionals: [vault],
        options: FileSettingsOptions.specs + [
            .option("compression", "gzip|none", "Payload compression."),
            .option("name", "text", "The database name."),
            .option("description", "text", "The database description."),
            .option("recycle-bin", "on|off", "Whether deleting moves to the recycle bin."),
            .option("history-max-items", "n", "Most history items per entry (-1: no limit)."),
            .option("history-max-size", "size", "Most history bytes per entry (-1: no limit)."),
        ] + keyOptions)

    static let analyze = CommandSpec(
        name: "analyze", abstract: "Report breached, empty, weak, reused, expired and old passwords, worst first.",
        discussion: """
            Looks at every current entry (not the recycle bin or history unless asked): a password
            in the HIBP list (--hibp: Have I Been Pwned's SHA-1 file ordered by hash, or a folder
            of its 5-hex-digit range files; searched offline, never over the network), an empty
            one, a weak one (zxcvbn score below --min-score), one another entry also uses, an
            entry expired or expiring within --expiring-within days, a password unchanged for
            over --older-than days. A summary comes first, then the entries by problem.

            Exit code 0 when nothing is found, 6 when something is (the report is printed in
            full either way); a damaged HIBP list is exit 4, naming its line. --json prints
            {vault, hibp, entriesChecked, passwordsChecked, options, summary, findings: [{problem,
            path, uuid, history, recycled, ...}]}, path as 'ls --paths' prints it; a breached
            password has its count as the number breachCount.
            """,
        positionals: [vault],
        options: [
            .option("hibp", "file", "Also look each password up in this HIBP list (SHA-1, ordered by hash; or a folder of range files)."),
            .option("older-than", "days", "Also report passwords not changed for longer than this many days."),
            .option("expiring-within", "days", "Report entries expiring within this many days (default 30; 0: expired ones only)."),
            .option("min-score", "0-4", "A password scoring below this is weak (default 3: fewer than about 10^8 guesses)."),
            .flag("include-recycle-bin", "Also look at the entries in the recycle bin."),
            .flag("include-history", "Also look at the passwords of the entries' history items."),
            .option("time", "unix-seconds", "Measure expiry and age from this time instead of now."),
            .flag("json", "Print JSON (see above)."),
        ] + keyOptions)

    static let estimate = CommandSpec(
        name: "estimate", abstract: "Estimate a password's strength (zxcvbn), as keepassxc-cli estimate does.",
        discussion: """
            Prints the length, the entropy in bits (log2 of the guesses an attacker needs) and log10
            of the guesses; -a adds the score (0-4) and each pattern found: dictionary words (also
            reversed and l33t), keyboard walks, repeats, sequences, years, dates and random parts.
            Without PASSWORD it is read from the terminal without echo, or from the first line of
            standard input (a password on the command line shows in the shell's history).
            """,
        positionals: [PositionalSpec(name: "password", help: "The password (default: read from standard input).", isOptional: true)],
        options: [
            .flag("advanced", short: "a", "Show the score and the patterns found, with the parts of the password they cover."),
            .option("reference-year", "year", "Measure dates and years from this year (default: this year; 2017 gives zxcvbn 4.4's numbers)."),
            .flag("json", "Print {length, entropyBits, guessesLog10, score} (and sequence with -a)."),
        ])

    /// `mypass help`: not a command of ``all`` (it opens no vault), described for `help help`.
    static let help = CommandSpec(
        name: "help", abstract: "Show the command list, a command's help, or the manual page.",
        discussion: """
            'mypass help COMMAND [SUBCOMMAND]' prints what 'mypass COMMAND [SUBCOMMAND] --help'
            prints; 'mypass help --man' prints the manual page made from every command's help
            (read it with: mypass help --man | man -l -), 'mypass help --markdown' the user
            guide's command reference, made from the same help.
            """,
        positionals: [PositionalSpec(name: "subcommand", help: "The command (and subcommand) to describe.", isOptional: true)],
        options: [
            .flag("man", "Print the manual page (roff)."),
            .flag("markdown", "Print the command reference of docs/user-guide.md (Markdown)."),
        ])

    /// Every top-level command, in the order `mypass --help` lists them.
    static let all: [CommandSpec] = [
        info, ls, groups, show, browse, add, edit, rm, mv, mkdir, rmdir, totp, match, attachment, export, generate, merge, passkey,
        analyze, estimate,
        completion,
        unlock, lock, status, agent, sshAgent, gitCredential, run, read, clip, unclip,
        create, passwd, settings, importFile,
    ]

    /// The top-level help.
    static var topLevelHelp: String {
        var text = "OVERVIEW: A KeePass (KDBX) password manager.\n\n"
        text += "USAGE: mypass <subcommand> <vault> [<arguments>] [<options>]\n\n"
        text += """
            The master password is read from the terminal without echo, or from the first line of
            standard input when it is not a terminal (printf 'demo\\n' | mypass ls demo.kdbx).

            Exit codes: 0 success, 1 other failure, 2 usage error, 3 wrong password or key file,
            4 corrupted or unsupported file, 5 no match (match without a suggestion), 6 problems
            found (analyze).

            The vault may be left out when MYPASS_VAULT names one, or the config file
            ($XDG_CONFIG_HOME/mypass/config, else ~/.config/mypass/config) has a line
            vault = PATH (# starts a comment; ~/ is the home directory). MYPASS_VAULT wins.

            """
        text += "\nOPTIONS:\n"
        text += HelpFormatter.row("--version", "Show the version.")
        text += HelpFormatter.row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in all { text += HelpFormatter.row(command.name, command.abstract) }
        text += HelpFormatter.row("help", "Show subcommand help information (help --man: the manual page; help --markdown: the user guide's command reference).")
        text += "\n  See 'mypass help <subcommand>' for detailed help.\n"
        return text
    }

    static let topLevelUsage = "mypass <subcommand> <vault> [<arguments>] [<options>]"
}
