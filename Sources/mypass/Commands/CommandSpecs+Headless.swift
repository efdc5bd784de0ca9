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
}
