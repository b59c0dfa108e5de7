package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/shell"
	"github.com/parleyhq/parley/internal/textsafe"
)

// Shell completion: `parley completion bash|zsh|fish|powershell` (cobra's)
// prints the script; the functions here give it flag values and debate ids.

func fixed(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// computed offers values worked out only when a completion asks for them:
// the personas are parsed from YAML, which every command would otherwise
// pay for at start-up (3 ms, a third of `parley af`'s).
func computed(values func() []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeIDs offers the ids of the debates in the database, newest first,
// with their topic as the description; it reads the database read-only.
func completeIDs(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 && cmd.Name() != "ask" {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx := context.Background()
		store, ok, err := f.OpenStoreReadOnly(ctx)
		if err != nil || !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer store.Close()
		sums, err := store.List(ctx, debate.ListFilter{Limit: 200})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, s := range sums {
			if strings.HasPrefix(strings.ToLower(s.ID), strings.ToLower(prefix)) {
				// zsh and fish print the description in their menus.
				out = append(out, s.ID+"\t"+s.Format+": "+app.Truncate(textsafe.Clean(s.Topic), 40))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeAskAgents offers the agents of the debate 'parley ask' names
// (its first argument), as --agent takes them; bull, bear and moderator
// were offered for every debate, names a perspectives or crux debate has
// not. Without a debate it can read, it offers nothing.
func completeAskAgents(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx := context.Background()
		store, ok, err := f.OpenStoreReadOnly(ctx)
		if err != nil || !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer store.Close()
		st, _, err := loadDebate(ctx, f, store, args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, a := range app.Agents(st) {
			if strings.HasPrefix(a, strings.ToLower(prefix)) {
				out = append(out, a)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// registerCompletions wires the value completions of the commands' flags.
func registerCompletions(root *cobra.Command, f *Factory) {
	ids := completeIDs(f)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "show", "export", "delete", "ask":
			c.ValidArgsFunction = ids
		}
		reg := func(flag string, fn func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)) {
			if c.Flags().Lookup(flag) != nil {
				_ = c.RegisterFlagCompletionFunc(flag, fn)
			}
		}
		reg("format", fixed(f.Formats.Names()...))
		reg("as", fixed("md", "json", "pdf"))
		var statuses []string
		for _, s := range app.Statuses() {
			statuses = append(statuses, string(s))
		}
		reg("status", fixed(statuses...))
		reg("provider", fixed("anthropic", "openai", "ollama"))
		reg("model-for", fixed("moderator=", "debater=", "bull=", "bear=", "analyst=", "persona="))
		// The formats' options take the values their formats name.
		union, _ := setup.Union(f.Formats)
		for _, d := range union {
			if slices.ContainsFunc(d.By, func(o setup.Option) bool { return o.Choices != nil }) {
				reg(d.Name, computed(d.Choices))
			}
		}
		reg("agent", completeAskAgents(f))
		reg("resume", ids)
		reg("theme", fixed(string(shell.ThemeAuto), string(shell.ThemeDark), string(shell.ThemeLight)))
	}
}
