package app

import (
	"slices"
	"testing"
)

func TestSuggest(t *testing.T) {
	names := []string{"af", "ask", "debate", "delete", "help", "list", "limits", "shell", "show"}
	for typed, want := range map[string][]string{
		"hepl":  {"help"},
		"lsit":  {"list"},
		"de":    {"debate", "delete"},
		"SHWO":  {"show"},
		"xx":    nil,
		"":      nil,
		"debat": {"debate"},
		"shel":  {"shell"},
		"hlep":  {"help"},
		"lmits": {"limits"},
	} {
		if got := Suggest(typed, names); !slices.Equal(got, want) {
			t.Errorf("Suggest(%q) = %q, want %q", typed, got, want)
		}
	}
}

func TestOSADistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"hepl", "help", 1}, {"hepl", "shell", 2}, {"", "abc", 3}, {"abc", "abc", 0}, {"ca", "abc", 3}, {"kitten", "sitting", 3}, {"é", "e", 1}} {
		if got := osaDistance(c.a, c.b); got != c.want {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
