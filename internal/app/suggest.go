package app

import (
	"strings"
	"unicode/utf8"
)

// Suggest returns the names a mistyped typed was probably meant to be, for
// "did you mean" answers of the command line and the shell: the names it
// begins, else the nearest by optimal string alignment distance (a swap of
// neighbouring letters costs one, so 'hepl' is nearer 'help' than
// 'shell'), at most two edits away and fewer edits than it has letters.
// Case is ignored; names keep their order.
func Suggest(typed string, names []string) []string {
	typed = strings.ToLower(typed)
	if typed == "" {
		return nil
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
