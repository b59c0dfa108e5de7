package server

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/setup"
)

// The new-debate form's fields of each format are built from the registry,
// as the API's are (apiOptions): each option a format declares that a
// request can give, shown as its kind, range and choices call for, with the
// format's label, usage, placeholder and default; then the request's fields
// that only some formats take (offline, no_checkpoints). A new format's
// option is a field of the form with no change here.

// formSet is one format's fieldset: the page's script shows the chosen
// format's only, and disables the others so that they are not sent.
type formSet struct {
	Format string
	Fields []formField
}

// formField is one field of a format's fieldset.
type formField struct {
	// Name is the field's name in the form: the API's field, with the
	// format's name before it when several formats' fieldsets have it
	// (council_max_rounds), so that a form sent without the page's script,
	// every fieldset in it, is still read right.
	Name string
	// ID names the field in the page (a slider's output and ticks).
	ID string
	// Label, Usage and Placeholder are the format's words for the option.
	Label, Usage, Placeholder string
	// Widget is how the field is shown: checkbox, select, range, number
	// or text.
	Widget string
	// Min and Max bound a number or a slider when Ranged.
	Min, Max int
	Ranged   bool
	// Value is a field's value as shown, Checked a checkbox's.
	Value   string
	Checked bool
	// Choices are a select's choices, or a slider's ticks.
	Choices []formChoice

	// def is the value shown before anything is entered.
	def string
	// option is the option's name; "" for a field of the request
	// (request).
	option string
	// request is the request's field a general field sets: "offline" or
	// "no_checkpoints".
	request string
	kind    setup.Kind
	split   bool
}

type formChoice struct {
	Value, Label string
	Selected     bool
}

// Widgets: an int of a few values with no default ("the moderator
// decides") is a choice of them; one of a few values with a default is a
// slider.
const (
	formChoiceInts = 10
	formSliderInts = 5
)

// formSets are the form's fieldsets, one for each format in the registry's
// order, with the values entered (a form shown again with its error) or,
// with entered nil, the formats' defaults.
func (s *Server) formSets(entered map[string]string) []formSet {
	var sets []formSet
	count := map[string]int{}
	for _, name := range s.app.Formats.Names() {
		fields := s.formFields(name)
		for _, f := range fields {
			count[f.Name]++
		}
		sets = append(sets, formSet{Format: name, Fields: fields})
	}
	for _, set := range sets {
		for i := range set.Fields {
			f := &set.Fields[i]
			if count[f.Name] > 1 {
				f.Name = set.Format + "_" + f.Name
			}
			f.ID = "f-" + f.Name
			f.fill(entered)
		}
	}
	return sets
}

// formFieldsOf is the chosen format's fields, named as the form names
// them; none for a format the registry lacks (or none chosen).
func (s *Server) formFieldsOf(format string) []formField {
	for _, set := range s.formSets(nil) {
		if set.Format == format {
			return set.Fields
		}
	}
	return nil
}

// formFields are a format's fields, named by their API fields.
func (s *Server) formFields(name string) []formField {
	format, err := s.app.Formats.Get(name)
	if err != nil {
		return nil
	}
	var out []formField
	for _, o := range setup.OptionsOf(format) {
		d, ok := s.opts.byName(o.Name)
		if !ok {
			continue // a file's, or one only the config file gives
		}
		out = append(out, optionField(o, d))
	}
	if r, ok := format.(interface{ RunsOffline() bool }); ok && r.RunsOffline() {
		out = append(out, formField{Name: "offline", request: "offline", Label: "Offline", Usage: "no model and no network", Widget: "checkbox"})
	}
	if c, ok := format.(setup.Checkpointer); ok && c.Checkpoints() {
		out = append(out, formField{Name: "no_checkpoints", request: "no_checkpoints", Label: "Run to the end without checkpoints", Widget: "checkbox"})
	}
	return out
}

// optionField is the field of option o as its format declares it; d is
// the option as the API takes it.
func optionField(o setup.Option, d setup.Declared) formField {
	f := formField{Name: d.JSON(), Label: o.FormLabel(), Usage: strings.ReplaceAll(o.Usage, "`", ""), Placeholder: o.Placeholder,
		option: o.Name, kind: o.Kind, split: d.Split, Min: o.Min, Max: o.Max, Ranged: o.Min != 0 || o.Max != 0}
	switch v := o.Value().(type) {
	case int:
		if o.Default != nil {
			f.def = strconv.Itoa(v)
		}
	case bool:
		if v {
			f.def = "on"
		}
	case string:
		f.def = v
	case []string:
		f.def = strings.Join(v, ", ")
	}
	switch o.Kind {
	case setup.Bool:
		f.Widget = "checkbox"
	case setup.Int:
		f.Widget = "number"
		switch n := f.Max - f.Min + 1; {
		case !f.Ranged:
		case o.Default == nil && n <= formChoiceInts:
			f.Widget = "select"
			f.Choices = []formChoice{{Value: "", Label: cmp.Or(o.Placeholder, "default")}}
			for i := f.Min; i <= f.Max; i++ {
				f.Choices = append(f.Choices, formChoice{Value: strconv.Itoa(i), Label: strconv.Itoa(i)})
			}
		case o.Default != nil && n <= formSliderInts:
			f.Widget = "range"
			for i := f.Min; i <= f.Max; i++ {
				t := formChoice{Value: strconv.Itoa(i)}
				if i == f.Min || i == f.Max || strconv.Itoa(i) == f.def {
					t.Label = t.Value
				}
				f.Choices = append(f.Choices, t)
			}
		}
	case setup.String:
		f.Widget = "text"
		var choices []string
		if o.Choices != nil {
			choices = o.Choices()
		}
		if len(choices) > 0 {
			f.Widget = "select"
			if f.def == "" {
				f.Choices = append(f.Choices, formChoice{Value: "", Label: cmp.Or(o.Placeholder, "none")})
			}
			for _, c := range choices {
				f.Choices = append(f.Choices, formChoice{Value: c, Label: c})
			}
		}
	default:
		f.Widget = "text"
		if f.Placeholder == "" && f.split {
			f.Placeholder = "comma-separated"
		}
	}
	return f
}

// fill sets the value shown: as entered, with entered not nil (a form
// shown again), else the default. A number or a slider left empty shows
// its default again, as a debate started with it left empty would run.
func (f *formField) fill(entered map[string]string) {
	v := f.def
	if entered != nil {
		v = entered[f.Name]
	}
	switch f.Widget {
	case "checkbox":
		f.Checked = v != ""
	case "select":
		for i := range f.Choices {
			f.Choices[i].Selected = v != "" && f.Choices[i].Value == v
		}
	case "range", "number":
		f.Value = cmp.Or(v, f.def)
	default:
		f.Value = v
	}
}

// createFromForm reads the new-debate form: the fields of the chosen
// format only.
func (s *Server) createFromForm(fm func(string) string) (CreateRequest, error) {
	c := CreateRequest{Format: fm("format"), Topic: fm("topic"), Provider: fm("provider"), Model: fm("model")}
	w := s.formWording(c.Format)
	// A field left empty is an option not given, as in the API's body.
	set := func(name string, v any) {
		if reflect.ValueOf(v).IsZero() {
			return
		}
		if c.Options == nil {
			c.Options = setup.Values{}
		}
		c.Options[name] = v
	}
	for _, f := range s.formFieldsOf(c.Format) {
		raw := fm(f.Name)
		switch {
		case f.request == "offline":
			c.Offline = raw == "on"
		case f.request == "no_checkpoints":
			c.NoCheckpoints = raw == "on"
		case f.kind == setup.Int:
			v := strings.TrimSpace(raw)
			if v == "" {
				continue
			}
			// A number field's value is what the person typed, and a
			// browser sends "1e1" or "3.0" as typed: a whole number in
			// any spelling the API takes (integralLiteral) is one here too.
			if plain, ok := integralLiteral(v); ok && json.Valid([]byte(v)) {
				v = plain
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return c, setup.Inputf("%s %q is not a whole number: give one or leave it empty", w.flag(f.option), clip(v))
			}
			set(f.option, n)
		case f.kind == setup.Bool:
			set(f.option, raw == "on")
		case f.kind == setup.String:
			set(f.option, raw)
		case f.kind == setup.Strings && f.split:
			var list []string
			for _, a := range strings.Split(raw, ",") {
				if a = strings.TrimSpace(a); a != "" {
					list = append(list, a)
				}
			}
			if len(list) > 0 {
				set(f.option, list)
			}
		case f.kind == setup.Strings:
			// One item, whole (a hint), as a flag given once.
			if v := strings.TrimSpace(raw); v != "" {
				set(f.option, []string{v})
			}
		default:
			return c, fmt.Errorf("option %s: the form has no field for a %s", f.option, f.kind)
		}
	}
	return c, nil
}

// formWording words a request's errors with the new-debate form's labels,
// which a person filling it in sees, instead of the API's field names.
type formWording struct {
	// labels are the labels of the options' and the request's fields by
	// flag: the chosen format's, else the first format's that declares
	// the option.
	labels map[string]string
}

func (s *Server) formWording(format string) formWording {
	labels := map[string]string{"offline": "Offline", "no-checkpoints": "Run to the end without checkpoints"}
	for _, d := range s.opts {
		labels[d.Name] = d.By[0].FormLabel()
		for i, f := range d.Formats {
			if f == format {
				labels[d.Name] = d.By[i].FormLabel()
			}
		}
	}
	return formWording{labels: labels}
}

func (formWording) noModel(e *setup.ErrNoModelConfigured) string { return e.ForForm() }

// flag is the label of the form's field for a flag, for the chosen format
// (the council's --max-rounds is its "Rounds" slider, perspectives' its
// "Max rounds"), "" for a flag the form has no field for.
func (f formWording) flag(name string) string {
	label := f.labels[name]
	switch name {
	case "topic", "format", "provider", "model":
		label = strings.ToUpper(name[:1]) + name[1:]
	}
	if label == "" {
		return ""
	}
	return "\u201c" + label + "\u201d"
}
