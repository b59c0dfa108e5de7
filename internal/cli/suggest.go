package cli

import (
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// unknownCommand is the root command's Args: a word that names no command
// is bad input that suggests the commands it was probably meant to be, or,
// when it is near none (a question, a ticker), how to debate it.
//
// It replaces cobra's suggestions, which measure plain Levenshtein distance
// (a swap of two letters costs two, so 'hepl' is as near 'shell' as 'help')
// and never suggest the help command.
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
// typed may have meant: those it begins, else those nearest to it by
// optimal string alignment distance (a swap of neighbours costs one), at
// most two edits away and fewer edits than it has letters.
func suggestCommands(cmd *cobra.Command, typed string) []string {
	typed = strings.ToLower(typed)
	if typed == "" {
		return nil
	}
	var names []string
	for _, c := range cmd.Commands() {
		if !c.Hidden && c.Deprecated == "" {
			names = append(names, c.Name())
		}
	}
	var prefixed []string
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) > 0 {
		return prefixed
	}
	best := min(2, utf8.RuneCountInString(typed)-1)
	var nearest []string
	for _, n := range names {
		switch d := osaDistance(typed, n); {
		case d < best:
			best, nearest = d, []string{n}
		case d == best:
			nearest = append(nearest, n)
		}
	}
	return nearest
}

// osaDistance is the optimal string alignment distance between a and b:
// the insertions, deletions, substitutions and swaps of adjacent letters
// that turn one into the other, no letter edited twice.
func osaDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
