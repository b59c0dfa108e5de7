package cli

import (
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/internal/app"
)

// unknownCommand is the root command's Args: a word that names no command
// is bad input that suggests the commands it was probably meant to be, or,
// when it is near none (a question, a ticker), how to debate it.
//
// It replaces cobra's suggestions, which measure plain Levenshtein distance
// (a swap of two letters costs two, so 'hepl' is as near 'shell' as 'help'),
// list every command within two edits ('de': af) and never suggest the
// help command.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	typed := args[0]
	if s := suggestCommands(cmd, typed); len(s) > 0 {
		return usageErrorf("unknown command %q for %q\n\nDid you mean this?\n\t%s", typed, cmd.CommandPath(), strings.Join(s, "\n\t"))
	}
	topic := `"TOPIC"`
	if utf8.RuneCountInString(typed) <= 80 && !strings.ContainsAny(typed, "\"$`\\!\n") {
		topic = `"` + typed + `"`
	}
	return usageErrorf("unknown command %q for %q: '%s --help' lists the commands; to debate a question or a ticker: %s debate %s", typed, cmd.CommandPath(), cmd.CommandPath(), cmd.CommandPath(), topic)
}

// suggestCommands are the names of cmd's commands (help included) that
// typed may have meant (see app.Suggest).
func suggestCommands(cmd *cobra.Command, typed string) []string {
	var names []string
	for _, c := range cmd.Commands() {
		if !c.Hidden && c.Deprecated == "" {
			names = append(names, c.Name())
		}
	}
	return app.Suggest(typed, names)
}

// suggestFlags are the names of c's flags, its own and those it inherits,
// that the unknown flag of err (pflag's "unknown flag: --max-round") may
// have meant (see app.Suggest): '--no-checkpoint' is '--no-checkpoints',
// '--modle' is '--model'. None for another error.
func suggestFlags(c *cobra.Command, err error) []string {
	typed, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return nil
	}
	typed, _, _ = strings.Cut(typed, "=")
	var names []string
	c.Flags().VisitAll(func(fl *pflag.Flag) {
		if !fl.Hidden && fl.Deprecated == "" {
			names = append(names, fl.Name)
		}
	})
	return app.Suggest(typed, names)
}

// subcommandArgs is the Args of a command that runs alone and has
// subcommands ('parley limits', 'parley limits set'): an argument is a
// mistyped subcommand when it is near one, else one the command does not
// take.
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if s := suggestCommands(cmd, args[0]); len(s) > 0 {
		return usageErrorf("unknown command %q for %q\n\nDid you mean this?\n\t%s", args[0], cmd.CommandPath(), strings.Join(s, "\n\t"))
	}
	return noArgs(cmd, args)
}
