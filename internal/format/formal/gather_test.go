package formal_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/formal"
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
