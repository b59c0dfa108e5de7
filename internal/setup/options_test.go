package setup

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
)

// optFormat is a format of the tests that declares the options given.
type optFormat struct {
	name string
	opts []Option
}

func (f optFormat) Name() string      { return f.name }
func (f optFormat) Options() []Option { return f.opts }
func (optFormat) Protocol(string, json.RawMessage) (debate.Protocol, error) {
	return nil, nil
}
func (optFormat) Render(*debate.State, debate.RenderOptions) (string, error) { return "", nil }

// TestUnionRefusesTwoKinds: one name declared by two formats as two kinds
// (or two fields, or a file and not) is a programming error the union
// names; declared alike, it is one option both formats take.
func TestUnionRefusesTwoKinds(t *testing.T) {
	rounds := Option{Name: "rounds", Kind: Int, Usage: "rounds"}
	for _, tc := range []struct {
		name  string
		other Option
		says  string
	}{
		{"kind", Option{Name: "rounds", Kind: String, Usage: "rounds"}, "option rounds: format a declares it as int (field rounds), format b as string (field rounds)"},
		{"field", Option{Name: "rounds", Kind: Int, Field: "n", Usage: "rounds"}, "format b as int (field n)"},
		{"file", Option{Name: "rounds", Kind: Int, File: true, Usage: "rounds"}, "format b as int (field rounds, a file)"},
		{"default of another kind", Option{Name: "rounds", Kind: Int, Default: "2"}, `format b: option rounds: default "2" is not of its kind, int`},
		{"no kind", Option{Name: "rounds"}, "format b: option rounds: no kind"},
		{"named as a field", Option{Name: "max_rounds", Kind: Int}, `format b: option "max_rounds": name it as its flag`},
		{"a range of a string", Option{Name: "rounds", Kind: String, Max: 3}, "format b: option rounds: only an int has a range"},
		{"an empty range", Option{Name: "rounds", Kind: Int, Min: 5, Max: 1}, "format b: option rounds: range 5-1 is empty"},
		{"a default out of range", Option{Name: "rounds", Kind: Int, Min: 1, Max: 5, Default: 9}, "format b: option rounds: default 9 is outside its range 1-5"},
	} {
		reg := debate.NewFormats(optFormat{"a", []Option{rounds}}, optFormat{"b", []Option{tc.other}})
		if _, err := Union(reg); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want an error saying %q", tc.name, err, tc.says)
		}
	}
	// A custom option's values are of its default's type, which the
	// config file reads them into: it needs one, and two formats one.
	custom := Option{Name: "extra", Kind: Custom, Default: []int(nil)}
	for _, tc := range []struct {
		name  string
		other Option
		says  string
	}{
		{"custom with no default", Option{Name: "more", Kind: Custom}, "option more: a custom option's default is a value of its type"},
		{"custom of another type", Option{Name: "extra", Kind: Custom, Default: []string(nil)}, "format a declares it as custom []int (field extra), format b as custom []string (field extra)"},
	} {
		reg := debate.NewFormats(optFormat{"a", []Option{custom}}, optFormat{"b", []Option{tc.other}})
		if _, err := Union(reg); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v; want an error saying %q", tc.name, err, tc.says)
		}
	}
	reg := debate.NewFormats(optFormat{"a", []Option{rounds}}, optFormat{"b", []Option{{Name: "rounds", Kind: Int, Usage: "rounds", Default: 3}}})
	u, err := Union(reg)
	if err != nil || len(u) != 1 || strings.Join(u[0].Formats, ",") != "a,b" {
		t.Fatalf("two formats declaring rounds alike: %+v, %v", u, err)
	}
}

// TestHelpJoinsTheFormats: a shared option's help names every format that
// takes it, with its own note and, where the defaults differ, its default.
func TestHelpJoinsTheFormats(t *testing.T) {
	for _, tc := range []struct {
		opts [][]Option
		want string
	}{
		{[][]Option{{{Name: "x", Kind: Bool, Usage: "do x"}}}, "do x (a)"},
		{[][]Option{{{Name: "x", Kind: Bool, Usage: "do x"}}, {{Name: "x", Kind: Bool, Usage: "do x"}}}, "do x (a, b)"},
		{[][]Option{{{Name: "n", Kind: Int, Usage: "cap", Note: "1-5", Default: 3}}, {{Name: "n", Kind: Int, Usage: "cap", Default: 5}}},
			"cap (a: 1-5, default 3; b: default 5)"},
		{[][]Option{{{Name: "n", Kind: Int, Usage: "cap", Note: "1-5", Default: 3}}, {{Name: "n", Kind: Int, Usage: "cap", Default: 3}}},
			"cap (a: 1-5; b)"},
		{[][]Option{{{Name: "s", Kind: Strings, Usage: "agents"}}, {{Name: "s", Kind: Strings, Usage: "personas", Note: "two"}}},
			"a: agents; b: personas, two"},
	} {
		var fs []debate.Format
		for i, o := range tc.opts {
			fs = append(fs, optFormat{string(rune('a' + i)), o})
		}
		u, err := Union(debate.NewFormats(fs...))
		if err != nil || len(u) != 1 {
			t.Fatalf("%v: %+v, %v", tc.opts, u, err)
		}
		if got := u[0].Help(); got != tc.want {
			t.Errorf("help: %q, want %q", got, tc.want)
		}
	}
}

// TestFormLabel: an option's label in a form is the format's word for it,
// else its name as words.
func TestFormLabel(t *testing.T) {
	for _, tc := range []struct {
		o    Option
		want string
	}{
		{Option{Name: "max-rounds"}, "Max rounds"},
		{Option{Name: "max-rounds", Label: "Rounds"}, "Rounds"},
		{Option{Name: "deep"}, "Deep"},
	} {
		o, want := tc.o, tc.want
		if got := o.FormLabel(); got != want {
			t.Errorf("%s: %q, want %q", o.Name, got, want)
		}
	}
}
