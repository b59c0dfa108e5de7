package crux

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/yamlfile"
)

//go:embed personas.yaml
var builtinPersonas []byte

// Persona is a viewpoint a debater argues from.
type Persona struct {
	ID         string   `json:"id" yaml:"id"`
	Name       string   `json:"name" yaml:"name"`
	Viewpoint  string   `json:"viewpoint" yaml:"viewpoint"`
	Priorities []string `json:"priorities,omitempty" yaml:"priorities,omitempty"`
}

// Bounds on a persona, which a moderator may write when it casts one (and
// a personas file may hold): its name heads every turn it takes, in the
// terminal, the shell, the dashboard and the exports, and its viewpoint
// and priorities go into every prompt it is given.
const (
	MaxNameLen       = 60   // characters
	MaxViewpointLen  = 2000 // characters
	MaxPriorities    = 12
	MaxPriorityLen   = 200 // characters
	plainTextProblem = "a line break, or a control, bidirectional or invisible character"
)

// bounded checks what a persona's text may hold: a name of one line of
// plain text, MaxNameLen characters at most (a name of kilobytes, or with
// line breaks, wrote lines that read as another turn's heading, the
// moderator's, into every view of the debate), a viewpoint and priorities
// of bounded length.
func (p Persona) bounded() error {
	switch {
	case utf8.RuneCountInString(p.Name) > MaxNameLen:
		return fmt.Errorf("the name is %d characters; keep it to %d", utf8.RuneCountInString(p.Name), MaxNameLen)
	case !textsafe.PlainLine(p.Name):
		return fmt.Errorf("the name %q holds %s: write it as one line of plain text", p.Name, plainTextProblem)
	case utf8.RuneCountInString(p.Viewpoint) > MaxViewpointLen:
		return fmt.Errorf("the viewpoint is %d characters; keep it to %d", utf8.RuneCountInString(p.Viewpoint), MaxViewpointLen)
	case len(p.Priorities) > MaxPriorities:
		return fmt.Errorf("%d priorities; give %d at most", len(p.Priorities), MaxPriorities)
	}
	for _, pr := range p.Priorities {
		switch {
		case utf8.RuneCountInString(pr) > MaxPriorityLen:
			return fmt.Errorf("a priority is %d characters; keep each to %d", utf8.RuneCountInString(pr), MaxPriorityLen)
		case !textsafe.PlainLine(pr):
			return fmt.Errorf("the priority %q holds %s: write it as one line of plain text", pr, plainTextProblem)
		}
	}
	return nil
}

type personaFile struct {
	Personas []Persona `yaml:"personas"`
}

var personaIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`) })

// Personas is a set of personas by id.
type Personas map[string]Persona

// IDs lists the persona ids, sorted.
func (ps Personas) IDs() []string {
	out := make([]string, 0, len(ps))
	for id := range ps {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// BuiltinPersonas returns the personas embedded in the binary.
func BuiltinPersonas() (Personas, error) {
	return parsePersonas(builtinPersonas, "built-in personas")
}

// LoadPersonas returns the built-in personas extended by the YAML file at
// path (a persona with a built-in id overrides it); "" means built-in only.
func LoadPersonas(path string) (Personas, error) {
	ps, err := BuiltinPersonas()
	if err != nil {
		return nil, err
	}
	if path == "" {
		return ps, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("personas file %s does not exist: pass the path of a YAML file with a `personas:` list", path)
		}
		return nil, fmt.Errorf("read personas file %s: %w", path, err)
	}
	user, err := parsePersonas(data, path)
	if err != nil {
		return nil, err
	}
	for id, p := range user {
		ps[id] = p
	}
	return ps, nil
}

func parsePersonas(data []byte, src string) (Personas, error) {
	var f personaFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if err, ok := yamlfile.Problems(err, reflect.TypeFor[personaFile](), data); ok {
			return nil, fmt.Errorf("personas file %s: %w", src, err)
		}
		return nil, fmt.Errorf("%s: %w (want a `personas:` list of id, name, viewpoint, priorities)", src, err)
	}
	if len(f.Personas) == 0 {
		return nil, fmt.Errorf("%s has no personas: want a `personas:` list of id, name, viewpoint, priorities", src)
	}
	out := Personas{}
	for i, p := range f.Personas {
		p.ID = strings.ToLower(strings.TrimSpace(p.ID))
		p.Name = strings.TrimSpace(p.Name)
		p.Viewpoint = strings.TrimSpace(p.Viewpoint)
		switch {
		case !personaIDRe().MatchString(p.ID):
			return nil, fmt.Errorf("%s: persona %d: id %q must be lowercase letters, digits and hyphens", src, i+1, p.ID)
		case p.Name == "":
			return nil, fmt.Errorf("%s: persona %s has no name", src, p.ID)
		case p.Viewpoint == "":
			return nil, fmt.Errorf("%s: persona %s has no viewpoint", src, p.ID)
		}
		if err := p.bounded(); err != nil {
			return nil, fmt.Errorf("%s: persona %s: %w", src, p.ID, err)
		}
		if _, dup := out[p.ID]; dup {
			return nil, fmt.Errorf("%s: persona %s is defined twice", src, p.ID)
		}
		out[p.ID] = p
	}
	return out, nil
}

// Select picks the debaters by id, in the given order.
func (ps Personas) Select(ids []string) ([]Persona, error) {
	if len(ids) != 2 {
		return nil, fmt.Errorf("--agents: crux debates two personas, got %d; for example --agents saylor,hayes (known: %s)", len(ids), strings.Join(ps.IDs(), ", "))
	}
	var out []Persona
	for _, id := range ids {
		id = strings.ToLower(strings.TrimSpace(id))
		p, ok := ps[id]
		if !ok {
			return nil, &setup.OptionError{Option: "agents", Problem: fmt.Sprintf("no persona %q; known: %s", id, strings.Join(ps.IDs(), ", ")),
				Local: "add your own with --personas FILE"}
		}
		if len(out) == 1 && out[0].ID == p.ID {
			return nil, fmt.Errorf("--agents: %q debates itself; choose two different personas", id)
		}
		out = append(out, p)
	}
	return out, nil
}
