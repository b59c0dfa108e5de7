package setup

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Kind is the type of an option's value.
type Kind int

// The kinds of options, each with the Go type of its value in Values.
const (
	Int     Kind = iota + 1 // int
	Bool                    // bool
	String                  // string
	Strings                 // []string
	// Custom is a value of the format's own type (perspectives' custom
	// perspectives), the type of the option's Default: only the config
	// file, whose keys are the options', can give one, decoded into a
	// value of that type; there is no flag and no API field for it.
	Custom
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case String:
		return "string"
	case Strings:
		return "string list"
	case Custom:
		return "custom"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// goType is the type of a value of the kind, nil for Custom (any).
func (k Kind) goType() reflect.Type {
	switch k {
	case Int:
		return reflect.TypeFor[int]()
	case Bool:
		return reflect.TypeFor[bool]()
	case String:
		return reflect.TypeFor[string]()
	case Strings:
		return reflect.TypeFor[[]string]()
	}
	return nil
}

// Option is an option a format takes: declared by the format (Optioner),
// offered by every front-end (a command-line flag, an HTTP API field, a
// value of Request).
type Option struct {
	// Name is the command-line flag's name ("max-rounds"), the name a
	// Request's Values and Given use.
	Name string
	Kind Kind
	// Usage says what the option is, as --help shows it ("cap on
	// rounds"); a `word` in backquotes names the flag's value.
	Usage string
	// Note is this format's own detail of a shared option ("1-5"): help
	// shows it after the format's name.
	Note string
	// Default is the value when the request gives none, of the kind's
	// type; nil is its zero value. A Custom option's is required: its
	// type (a typed nil will do) is the type of the option's values.
	Default any
	// Field is the option's HTTP API field; "" is Name with "_" for "-"
	// (max_rounds).
	Field string
	// File: the value names a file or a directory. The HTTP API, which
	// never reaches the server's filesystem, has no field for it.
	File bool
	// Split: a Strings flag's value is a comma-separated list (--agents
	// a,b); otherwise each value is one item, whole, and the flag is
	// repeated (--hint "bull: a, b").
	Split bool
	// Choices, when set, are the values the option takes, which a shell's
	// completion offers and a form's choice lists; a function, so that
	// values read from data (the built-in personas' YAML) are read only
	// when offered.
	Choices func() []string
	// Min and Max are the range of an Int option's values that the
	// format's Setup takes, which a form's field offers (the dashboard's
	// number fields, sliders and choice lists); 0 and 0 for no range.
	// The Setup still checks the value, with its own message.
	Min, Max int
	// Label is the option's name in a form ("Risk tolerance"), where this
	// format has a word of its own for it (council's --max-rounds is
	// "Rounds"); "" is the name, capitalised, with spaces for "-"
	// (FormLabel).
	Label string
	// Placeholder is what a form shows in the option's field while it is
	// empty ("bear: look at customer concentration"), or as the choice of
	// no value ("the moderator decides"); "" for the form's own.
	Placeholder string
}

// FormLabel is the option's name in a form: Label, or the name with
// spaces for "-", capitalised ("max-rounds" is "Max rounds").
func (o Option) FormLabel() string {
	if o.Label != "" {
		return o.Label
	}
	l := strings.ReplaceAll(o.Name, "-", " ")
	if l == "" {
		return ""
	}
	return strings.ToUpper(l[:1]) + l[1:]
}

// JSON is the option's HTTP API field.
func (o Option) JSON() string {
	if o.Field != "" {
		return o.Field
	}
	return strings.ReplaceAll(o.Name, "-", "_")
}

// Value is the option's default as a value of its kind.
func (o Option) Value() any {
	if o.Default != nil {
		return o.Default
	}
	switch o.Kind {
	case Int:
		return 0
	case Bool:
		return false
	case String:
		return ""
	case Strings:
		return []string(nil)
	}
	return nil
}

// Optioner is implemented by a format that takes options of its own: a
// request giving one no format of its declares is refused, rather than run
// without it (--agents with the format left to default to perspectives,
// --rounds for council).
type Optioner interface {
	Options() []Option
}

// OptionsOf is the options format declares, none when it declares none.
func OptionsOf(format debate.Format) []Option {
	if o, ok := format.(Optioner); ok {
		return o.Options()
	}
	return nil
}

// Declared is an option as the front-ends offer it: the first declaration
// of its name in the registry (its kind, field, whether it names a file),
// and every format that declares it, each with its own usage, note and
// default.
type Declared struct {
	Option
	// Formats are the formats that declare it, in the registry's order.
	Formats []string
	// By are their declarations, in the same order.
	By []Option
}

// Union is every option the formats of reg declare, in the order of the
// formats' names, then of their declarations. A name declared twice with
// another kind, field, split or file-ness is a programming error: one flag
// or field cannot take both.
func Union(reg *debate.Formats) ([]Declared, error) {
	var out []Declared
	for _, name := range reg.Names() {
		f, err := reg.Get(name)
		if err != nil {
			return nil, err
		}
		for _, o := range OptionsOf(f) {
			if err := o.check(); err != nil {
				return nil, fmt.Errorf("format %s: %w", name, err)
			}
			i := slices.IndexFunc(out, func(d Declared) bool { return d.Name == o.Name })
			if i < 0 {
				out = append(out, Declared{Option: o, Formats: []string{name}, By: []Option{o}})
				continue
			}
			d := &out[i]
			if o.Kind != d.Kind || o.JSON() != d.JSON() || o.File != d.File || o.Split != d.Split ||
				(o.Kind == Custom && reflect.TypeOf(o.Default) != reflect.TypeOf(d.Option.Default)) {
				return nil, fmt.Errorf("option %s: format %s declares it as %s, format %s as %s: a flag or an API field takes one",
					o.Name, d.Formats[0], d.describe(), name, o.describe())
			}
			d.Formats = append(d.Formats, name)
			d.By = append(d.By, o)
		}
	}
	return out, nil
}

// check finds what is wrong with a declaration.
func (o Option) check() error {
	switch {
	case o.Name == "" || strings.HasPrefix(o.Name, "-") || strings.ContainsAny(o.Name, " =,_"):
		return fmt.Errorf("option %q: name it as its flag, lower case words joined by '-'", o.Name)
	case o.Kind < Int || o.Kind > Custom:
		return fmt.Errorf("option %s: no kind", o.Name)
	case o.Kind == Custom && o.Default == nil:
		return fmt.Errorf("option %s: a custom option's default is a value of its type, which the config file's value is read into", o.Name)
	case o.Default != nil && o.Kind != Custom && reflect.TypeOf(o.Default) != o.Kind.goType():
		return fmt.Errorf("option %s: default %#v is not of its kind, %s", o.Name, o.Default, o.Kind)
	case o.Split && o.Kind != Strings:
		return fmt.Errorf("option %s: only a string list splits", o.Name)
	case (o.Min != 0 || o.Max != 0) && o.Kind != Int:
		return fmt.Errorf("option %s: only an int has a range", o.Name)
	case o.Min > o.Max:
		return fmt.Errorf("option %s: range %d-%d is empty", o.Name, o.Min, o.Max)
	case o.Default != nil && o.Max != 0 && (o.Default.(int) < o.Min || o.Default.(int) > o.Max):
		return fmt.Errorf("option %s: default %v is outside its range %d-%d", o.Name, o.Default, o.Min, o.Max)
	}
	return nil
}

func (o Option) describe() string {
	s := o.Kind.String()
	if o.Kind == Custom {
		s += " " + reflect.TypeOf(o.Default).String()
	}
	s += " (field " + o.JSON()
	if o.File {
		s += ", a file"
	}
	if o.Split {
		s += ", comma-separated"
	}
	return s + ")"
}

// Help is the option's usage for --help: the usage, then the formats that
// take it ("(council, crux)"), each with its note and, where their defaults
// differ, its default ("(perspectives: default 5; council: 1-5, default
// 3)"). Formats whose usages differ are each shown with their own.
func (d Declared) Help() string {
	same := true
	for _, o := range d.By {
		same = same && o.Usage == d.By[0].Usage
	}
	_, oneDefault := d.Default()
	parts := make([]string, len(d.By))
	detailed := !same
	for i, o := range d.By {
		var detail []string
		if !same {
			detail = append(detail, o.Usage)
		}
		if o.Note != "" {
			detail = append(detail, o.Note)
		}
		if !oneDefault {
			detail = append(detail, fmt.Sprintf("default %v", o.Value()))
		}
		parts[i] = d.Formats[i]
		if len(detail) > 0 {
			parts[i] += ": " + strings.Join(detail, ", ")
			detailed = true
		}
	}
	if !same {
		return strings.Join(parts, "; ")
	}
	sep := ", "
	if detailed {
		sep = "; "
	}
	return d.By[0].Usage + " (" + strings.Join(parts, sep) + ")"
}

// Default is the default every format that declares the option gives it,
// and whether they agree on one.
func (d Declared) Default() (any, bool) {
	v := d.By[0].Value()
	for _, o := range d.By[1:] {
		if !reflect.DeepEqual(o.Value(), v) {
			return nil, false
		}
	}
	return v, true
}

// Choices are the values the formats that declare the option take, for
// completion: each format's Choices, in order, once each; nil when none
// says.
func (d Declared) Choices() []string {
	var out []string
	for _, o := range d.By {
		if o.Choices == nil {
			continue
		}
		for _, c := range o.Choices() {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// Takes says which formats take the option, for messages: "council takes
// it", "council and crux take it".
func (d Declared) Takes() string {
	if len(d.Formats) == 1 {
		return d.Formats[0] + " takes it"
	}
	return strings.Join(d.Formats, " and ") + " take it"
}
