/// The commands that use an unlocked vault without a user at it: the SSH agent, the git
/// credential helper, secrets in a command's environment, one field for a script.
extension CommandSpecs {
    static let sshAgent = CommandSpec(
        name: "ssh-agent", abstract: "Serve the vault's SSH keys (KeePassXC's SSH Agent entries) to ssh, ssh-add and git.",
        discussion: """
            Unlocks the vault as 'unlock' does (or uses the agent's keys for it), reads the keys of the
            entries KeePassXC set up for its SSH agent (a KeeAgent.settings attachment with "Add key to
            agent when database is opened" on; encrypted keys open with the entry's password), and has
            the agent serve them on an SSH agent socket until the vault is locked ('mypass lock') or its
            timeout ends. Prints SSH_AUTH_SOCK=...; export SSH_AUTH_SOCK; for eval "$(mypass ssh-agent
            VAULT)". Keys cannot be added or removed through the socket; 'ssh-add -l' lists them, as does
            'mypass status'. A key set to "Require user confirmation" is asked about on the terminal
            this command ran in, and refused when there is none. Run it again to reload the keys.
            """,
        positionals: [vault],
        options: [
            .option("socket", "path", "Serve on this socket (its directory must be yours and writable by nobody else); default: ssh-agent.sock in the agent's directory."),
            .option("key", "entry", repeatable: true, "Add this entry's key only (whatever its settings say about adding at unlock)."),
            .option("timeout", "seconds", "When the vault is not unlocked yet: forget it after this long unused (default 900)."),
            .flag("csh", "Print setenv SSH_AUTH_SOCK ...; (csh and fish) instead of the sh form."),
        ] + keyOptions)

    static let gitCredential = CommandSpec(
        name: "git-credential", abstract: "A git credential helper: git config credential.helper '!mypass git-credential VAULT'.",
        discussion: """
            git runs it with get, store or erase and the request on standard input. get answers the user
            name and password of the entry whose URL matches the protocol and host as AutoFill matches them
            (and the path, with git's credential.useHttpPath: an entry URL with a path must be a prefix of
            it); with no match it answers nothing and git asks as usual. store and erase change nothing
            unless --store is given: then store updates the password of the matching entry with that user
            name (or adds an entry at the root), and erase moves the matching entry with that user name and
            password to the recycle bin. The vault opens with the agent's keys ('mypass unlock' first), or
            asks its password on the terminal.
            """,
        positionals: [vault, PositionalSpec(name: "action", help: "get, store or erase (git gives it).")],
        options: [.flag("store", "Let store and erase change the vault.")] + keyOptions)

    static let run = CommandSpec(
        name: "run", abstract: "Run a command with environment variables set from the vault's fields; its exit status is returned.",
        discussion: """
            Each --env NAME=ENTRY#FIELD sets NAME to the field's exact value (without #FIELD: the password;
            \\# is a # inside an entry's name). The command replaces mypass, so its exit status is run's,
            and the values are never printed. The vault opens with the agent's keys or asks its password.
            Example: mypass run vault.kdbx --env GITHUB_TOKEN=Work/GitHub -- gh repo list.
            """,
        positionals: [vault, PositionalSpec(name: "command", help: "The command and its arguments, after --.", isTrailing: true)],
        options: [.option("env", "name=entry[#field]", repeatable: true, "Set NAME to an entry's field.")] + keyOptions)

    static let read = CommandSpec(
        name: "read", abstract: "Print one field of an entry, exactly, for scripts: ENTRY#FIELD (default: the password).",
        discussion: """
            ENTRY is a path or UUID as for every command (\\# is a # inside a name); FIELD a standard or custom
            field's name. The value is printed as it is, with a line feed, as show --field prints it.
            """,
        positionals: [vault, PositionalSpec(name: "field", help: "ENTRY#FIELD, or ENTRY for its password.")],
        options: keyOptions)
}
