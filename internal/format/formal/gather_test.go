package formal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/websearch"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGather(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "README.md", "# Shop\n\nShop is one Go binary serving checkout, billing and search.\n")
	write(t, dir, "docs/adr-007.md", "# ADR 7\n\nWe keep the monolith until billing needs its own scaling.\n")
	write(t, dir, "billing/invoice.go", "package billing\n\n// Invoices are generated nightly.\n")
	write(t, dir, "node_modules/x/index.js", "monolith monolith\n")
	write(t, dir, "billing/a_test.go", "package billing // splits the monolith\n")
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	_, gitErr := exec.LookPath("git")
	if gitErr == nil {
		git("init", "-q")
		git("add", ".")
		git("commit", "-q", "-m", "Split billing out of the monolith")
	}
	k, err := formal.Gather(context.Background(), dir, "Should we migrate the monolith to microservices?")
	if err != nil {
		t.Fatal(err)
	}
	facts := strings.Join(k.Facts, "\n")
	for _, want := range []string{
		"4 files in", "README: Shop is one Go binary serving checkout, billing and search.",
		"Docs: 1 document, e.g. docs/adr-007.md", "Files mentioning migrate, monolith, microservices: docs/adr-007.md, billing/a_test.go",
	} {
		if !strings.Contains(facts, want) {
			t.Errorf("facts lack %q:\n%s", want, facts)
		}
	}
	if strings.Contains(k.Digest, "node_modules/x") {
		t.Errorf("the digest walks node_modules:\n%s", k.Digest)
	}
	if gitErr == nil {
		if !strings.Contains(facts, "Git: the 1 most recent commit; latest:") || !strings.Contains(facts, "Commits on the topic:") || !strings.Contains(k.Digest, "git log --oneline -n 30") {
			t.Errorf("git history missing:\n%s\n%s", facts, k.Digest)
		}
	}
	if !strings.Contains(k.Digest, "We keep the monolith until billing needs its own scaling.") {
		t.Errorf("digest lacks the ADR excerpt:\n%s", k.Digest)
	}

	if _, err := formal.Gather(context.Background(), filepath.Join(dir, "missing"), "x"); err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := formal.Gather(context.Background(), filepath.Join(dir, "README.md"), "x"); err == nil || !strings.Contains(err.Error(), "is a file, not a directory") {
		t.Errorf("file: %v", err)
	}
	// Outside a repository: said, not an error.
	plain := t.TempDir()
	write(t, plain, "main.go", "package main\n")
	k, err = formal.Gather(context.Background(), plain, "x")
	if err != nil || !strings.Contains(strings.Join(k.Facts, "\n"), "No git history") {
		t.Errorf("plain dir: %v %v", k.Facts, err)
	}
}

// TestSetupWebSearch checks step 1.4 of information gathering: with a web
// search engine configured (here a SearXNG stand-in), Setup searches the
// topic once and K carries each result with its URL, for both sides; with
// none, K says no web search was made; a failed search is noted, not fatal.
func TestSetupWebSearch(t *testing.T) {
	const topic = "Should we migrate the monolith to microservices?"
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.Query().Get("q"))
		if r.URL.Query().Get("q") == "fail" {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results": [
 {"url": "https://example.com/microservices-cost", "title": "The hidden cost of microservices", "content": "Teams of fewer than 20 engineers reported 30% more on-call load after splitting.", "publishedDate": "2026-05-01T00:00:00"},
 {"url": "https://example.org/modular-monolith", "title": "Modular monoliths in practice", "content": "Module boundaries first, services later."}]}`)
	}))
	defer srv.Close()
	env := func(vars map[string]string) setup.Env {
		return setup.Env{Getenv: func(k string) string { return vars[k] }}
	}
	opts := func(t *testing.T, e setup.Env, req *setup.Request) formal.Options {
		t.Helper()
		raw, err := formal.Format{}.Setup(context.Background(), e, req)
		if err != nil {
			t.Fatal(err)
		}
		var o formal.Options
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	dir := t.TempDir()
	write(t, dir, "README.md", "# Shop\n\nShop is one Go binary.\n")
	web := env(map[string]string{websearch.EnvSearXNG: srv.URL})

	o := opts(t, web, &setup.Request{Topic: topic, Format: formal.Name, Values: setup.Values{"rounds": 2, "context": dir}})
	facts := strings.Join(o.Context.Facts, "\n")
	if len(queries) != 1 || queries[0] != topic {
		t.Errorf("queries %q, want the topic once", queries)
	}
	for _, w := range []string{"README: Shop is one Go binary.", "Web: The hidden cost of microservices (https://example.com/microservices-cost, 2026-05-01", "Web: Modular monoliths in practice (https://example.org/modular-monolith)"} {
		if !strings.Contains(facts, w) {
			t.Errorf("facts lack %q:\n%s", w, facts)
		}
	}
	if strings.Contains(facts, "No web search was made") {
		t.Errorf("facts say no web search was made:\n%s", facts)
	}
	if !strings.Contains(o.Context.Digest, "30% more on-call load") || !strings.Contains(o.Context.Digest, "## Web search (SearXNG at") {
		t.Errorf("digest lacks the results:\n%s", o.Context.Digest)
	}

	// No --context: K is the web search alone.
	o = opts(t, web, &setup.Request{Topic: topic, Format: formal.Name, Values: setup.Values{"rounds": 2}})
	if len(o.Context.Facts) != 2 || !strings.HasPrefix(o.Context.Facts[0], "Web: The hidden cost") {
		t.Errorf("facts without a directory %q", o.Context.Facts)
	}

	// No engine: K says so.
	o = opts(t, env(nil), &setup.Request{Topic: topic, Format: formal.Name, Values: setup.Values{"rounds": 2, "context": dir}})
	if f := o.Context.Facts; f[len(f)-1] != "No web search was made: outside evidence must be stated and is open to challenge" {
		t.Errorf("facts without an engine %q", f)
	}

	// --offline: no search.
	queries = nil
	o = opts(t, web, &setup.Request{Topic: topic, Format: formal.Name, Offline: true, Values: setup.Values{"rounds": 2, "context": dir}})
	if f := o.Context.Facts; len(queries) != 0 || !strings.HasPrefix(f[len(f)-1], "No web search was made") {
		t.Errorf("offline: queries %q, facts %q", queries, f)
	}

	// A failing engine is noted, and the debate is still created.
	o = opts(t, web, &setup.Request{Topic: "fail", Format: formal.Name, Values: setup.Values{"rounds": 2, "context": dir}})
	if f := o.Context.Facts; !strings.Contains(f[len(f)-1], "Web search (SearXNG at") || !strings.Contains(f[len(f)-1], "failed") {
		t.Errorf("facts after a failed search %q", f)
	}
}
