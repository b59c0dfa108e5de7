package perspectives

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/yamlfile"
)

//go:embed catalog.yaml
var builtinCatalog []byte

// Perspective is a viewpoint a debater argues from: priorities and the
// trade-offs it will accept, not a persona.
type Perspective struct {
	Name       string   `json:"name" yaml:"name"`
	Priorities []string `json:"priorities" yaml:"priorities"`
	TradeOffs  string   `json:"trade_offs" yaml:"trade_offs"`
	Keywords   []string `json:"keywords,omitempty" yaml:"keywords,omitempty"`
	Tensions   []string `json:"tensions,omitempty" yaml:"tensions,omitempty"`
}

// Slug is the perspective's id in turn ids ("performance-advocate").
func (p Perspective) Slug() string { return slug(p.Name) }

type catalogFile struct {
	// Replace drops the built-in catalog instead of extending it.
	Replace      bool          `yaml:"replace"`
	Perspectives []Perspective `yaml:"perspectives"`
	// CustomPerspectives is the spec's settings key (debate.custom_perspectives),
	// accepted so that a settings file written for the design works.
	Debate struct {
		CustomPerspectives []Perspective `yaml:"custom_perspectives"`
		// Settings are the section's other keys (max_rounds, ...), which
		// are not the catalog's business but must not make it unreadable.
		Settings map[string]any `yaml:",inline"`
	} `yaml:"debate"`
}

// Catalog is an ordered set of perspectives, unique by name (case-insensitive).
type Catalog []Perspective

// BuiltinCatalog returns the catalog embedded in the binary.
func BuiltinCatalog() (Catalog, error) {
	c, _, err := parseCatalog(builtinCatalog, "built-in catalog")
	return c, err
}

// LoadCatalog returns the built-in catalog extended (or replaced, with
// `replace: true`) by the user's YAML file; a perspective with the name of a
// built-in one overrides it. path "" means the built-in catalog alone.
func LoadCatalog(path string) (Catalog, error) {
	base, err := BuiltinCatalog()
	if err != nil {
		return nil, err
	}
	if path == "" {
		return base, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("catalog %s does not exist: pass the path of a YAML file with a `perspectives:` list", path)
		}
		return nil, fmt.Errorf("read catalog %s: %w", path, err)
	}
	user, replace, err := parseCatalog(data, path)
	if err != nil {
		return nil, err
	}
	if replace {
		base = nil
	}
	return base.Extend(user, path)
}

// Extend adds perspectives to a catalog, a perspective of the same name
// replacing the catalog's; source names where they came from in errors.
func (c Catalog) Extend(user []Perspective, source string) (Catalog, error) {
	merged := append(Catalog(nil), c...)
	for _, p := range user {
		if strings.TrimSpace(p.Name) == "" || len(p.Priorities) == 0 {
			return nil, fmt.Errorf("%s: a perspective needs a name and priorities (got %+v)", source, p)
		}
		if i := merged.index(p.Name); i >= 0 {
			merged[i] = p
		} else {
			merged = append(merged, p)
		}
	}
	if len(merged) < 2 {
		return nil, fmt.Errorf("catalog %s leaves %d perspective(s): a debate needs at least 2", source, len(merged))
	}
	return merged, nil
}

// MaxNameLen bounds a perspective's name, in characters: it heads every
// turn its debater takes, in every view of the debate.
const MaxNameLen = 60

func parseCatalog(data []byte, name string) (Catalog, bool, error) {
	var f catalogFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if err, ok := yamlfile.Problems(err, reflect.TypeFor[catalogFile](), data); ok {
			return nil, false, fmt.Errorf("catalog %s: %w", name, err)
		}
		return nil, false, fmt.Errorf("parse %s: %w (expected `perspectives:` with name, priorities, trade_offs)", name, err)
	}
	list := append(f.Perspectives, f.Debate.CustomPerspectives...)
	if len(list) == 0 {
		return nil, false, fmt.Errorf("%s has no perspectives: add a `perspectives:` list with name, priorities, trade_offs", name)
	}
	var c Catalog
	for i, p := range list {
		p.Name = strings.TrimSpace(p.Name)
		switch {
		case p.Name == "":
			return nil, false, fmt.Errorf("%s: perspective %d has no name", name, i+1)
		case utf8.RuneCountInString(p.Name) > MaxNameLen:
			return nil, false, fmt.Errorf("%s: perspective %d: the name is %d characters; keep it to %d", name, i+1, utf8.RuneCountInString(p.Name), MaxNameLen)
		case !textsafe.PlainLine(p.Name):
			return nil, false, fmt.Errorf("%s: perspective %d: the name %q holds a line break, or a control, bidirectional or invisible character: write it as one line of plain text", name, i+1, p.Name)
		case len(p.Priorities) == 0:
			return nil, false, fmt.Errorf("%s: perspective %q has no priorities", name, p.Name)
		case strings.TrimSpace(p.TradeOffs) == "":
			return nil, false, fmt.Errorf("%s: perspective %q has no trade_offs", name, p.Name)
		case c.index(p.Name) >= 0:
			return nil, false, fmt.Errorf("%s: perspective %q appears twice", name, p.Name)
		}
		c = append(c, p)
	}
	return c, f.Replace, nil
}

func (c Catalog) index(name string) int {
	for i, p := range c {
		if strings.EqualFold(p.Name, name) || p.Slug() == slug(name) {
			return i
		}
	}
	return -1
}

// Find returns the named perspective.
func (c Catalog) Find(name string) (Perspective, bool) {
	if i := c.index(name); i >= 0 {
		return c[i], true
	}
	return Perspective{}, false
}

// Names lists the catalog's perspective names in order.
func (c Catalog) Names() []string {
	out := make([]string, len(c))
	for i, p := range c {
		out[i] = p.Name
	}
	return out
}

// Suggest ranks perspectives by how many of their keywords the topic holds,
// the spec's selection heuristic; ties keep catalog order.
func (c Catalog) Suggest(topic string) []string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(topic), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	}) {
		words[w] = true
	}
	type scored struct {
		name  string
		score int
		i     int
	}
	var ss []scored
	for i, p := range c {
		n := 0
		for _, k := range p.Keywords {
			if words[strings.ToLower(k)] {
				n++
			}
		}
		if n > 0 {
			ss = append(ss, scored{p.Name, n, i})
		}
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.name
	}
	return out
}

// InTension reports whether a set of perspectives holds at least one pair that
// pulls in opposite directions. A set that all agree defeats the purpose.
//
// A pair is in tension when either names the other in its tensions. A
// perspective that declares no tensions (the spec's custom_perspectives
// example declares none) is judged by its priorities instead: it is in
// tension with one whose priorities share none of its own, since they then
// optimise for different things.
func (c Catalog) InTension(names []string) bool {
	for i, a := range names {
		pa, _ := c.Find(a)
		for _, b := range names[i+1:] {
			pb, _ := c.Find(b)
			if containsFold(pa.Tensions, pb.Name) || containsFold(pb.Tensions, pa.Name) {
				return true
			}
			if (len(pa.Tensions) == 0 || len(pb.Tensions) == 0) && len(pa.Priorities) > 0 && len(pb.Priorities) > 0 && !sharePriority(pa, pb) {
				return true
			}
		}
	}
	return false
}

// sharePriority reports whether two perspectives name a priority in
// common (compared word by word, ignoring case and short words).
func sharePriority(a, b Perspective) bool {
	words := map[string]bool{}
	for _, p := range a.Priorities {
		for _, w := range strings.Fields(strings.ToLower(p)) {
			if len(w) > 3 {
				words[w] = true
			}
		}
	}
	for _, p := range b.Priorities {
		for _, w := range strings.Fields(strings.ToLower(p)) {
			if words[w] {
				return true
			}
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}
