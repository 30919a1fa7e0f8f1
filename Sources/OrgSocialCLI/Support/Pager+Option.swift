/// The `--no-pager` option of every command that pages its output (`timeline`, `notifications`,
/// `search`, `thread`): one definition, read into a ``Pager``.
extension Pager {
    /// `--no-pager`.
    static let option = OptionDefinition.flag(
        "no-pager", help: "Never page the output (it is paged with $PAGER on a terminal).")

    /// The pager of a command line: disabled by `--no-pager`.
    init(parsing arguments: ParsedArguments) {
        self.init(isDisabled: arguments.flag(Self.option.name))
    }
}
