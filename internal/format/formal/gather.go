package formal

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of the shared context gathered from a directory, so that K fits in
// every prompt.
const (
	gatherMaxFiles    = 20000 // files walked
	gatherTreeEntries = 60
	gatherReadme      = 2500
	gatherDocs        = 4
	gatherDocExcerpt  = 1200
	gatherCommits     = 30
	gatherHits        = 10
	gatherMaxFileSize = 256 << 10
	gatherDigest      = 16000
)

var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, "dist": true, "build": true, "target": true,
	".venv": true, "venv": true, "__pycache__": true, ".idea": true, ".vscode": true}

var stopWords = map[string]bool{"should": true, "would": true, "could": true, "which": true, "there": true, "their": true, "about": true,
	"where": true, "these": true, "those": true, "other": true, "being": true, "while": true, "after": true, "before": true, "using": true}

// Gather builds the shared context K from dir: its file tree, README and docs
// excerpts, the recent git history (when git is installed and dir is in a
// repository) and the files that mention the topic's key words. It reads the
// disk and runs git, so the command line calls it once, when the debate is
// created; the result is stored with the debate's options, which keeps the
// protocol pure and a resumed debate on the same K.
func Gather(ctx context.Context, dir, topic string) (Context, error) {
	info, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Context{}, fmt.Errorf("--context %s: no such directory: give the directory whose code, docs and git history the debate should use", dir)
		}
		return Context{}, fmt.Errorf("--context %s: %w", dir, err)
	}
	if !info.IsDir() {
		return Context{}, fmt.Errorf("--context %s is a file, not a directory: give the project's directory", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Context{}, fmt.Errorf("--context %s: %w", dir, err)
	}
	c := Context{Dir: abs}
	var dg strings.Builder

	// File tree.
	var files []string
	dirs := 0
	truncated := false
	werr := filepath.WalkDir(abs, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are skipped, not fatal
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		name := e.Name()
		if e.IsDir() {
			// Hidden directories are tool state, except CI configuration.
			if path != abs && (skipDirs[name] || strings.HasPrefix(name, ".") && name != ".github") {
				return filepath.SkipDir
			}
			dirs++
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if len(files) >= gatherMaxFiles {
			truncated = true
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(abs, path)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if werr != nil {
		return Context{}, fmt.Errorf("--context %s: %w", dir, werr)
	}
	slices.Sort(files)
	exts := map[string]int{}
	for _, f := range files {
		ext := filepath.Ext(f)
		if ext == "" {
			ext = "(none)"
		}
		exts[ext]++
	}
	type kv struct {
		k string
		n int
	}
	var byExt []kv
	for k, n := range exts {
		byExt = append(byExt, kv{k, n})
	}
	slices.SortFunc(byExt, func(a, b kv) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	var top []string
	for i, e := range byExt {
		if i == 6 {
			break
		}
		top = append(top, fmt.Sprintf("%s (%d)", e.k, e.n))
	}
	more := ""
	if truncated {
		more = " (stopped counting at the limit)"
	}
	c.Facts = append(c.Facts, fmt.Sprintf("%s: %d files in %d directories%s; most common types: %s", filepath.Base(abs), len(files), dirs, more, strings.Join(top, ", ")))
	fmt.Fprintf(&dg, "## Files of %s (%d files)\n", filepath.Base(abs), len(files))
	for i, f := range treeSummary(files) {
		if i == gatherTreeEntries {
			dg.WriteString("...\n")
			break
		}
		dg.WriteString(f + "\n")
	}

	// README and docs.
	for _, name := range []string{"README.md", "README", "README.txt", "README.rst", "readme.md"} {
		if text, ok := readExcerpt(filepath.Join(abs, name), gatherReadme); ok {
			fmt.Fprintf(&dg, "\n## %s (excerpt)\n%s\n", name, text)
			if first := firstParagraph(text); first != "" {
				c.Facts = append(c.Facts, fmt.Sprintf("README: %s", short(first, 220)))
			}
			break
		}
	}
	var docs []string
	for _, f := range files {
		low := strings.ToLower(f)
		if (strings.HasPrefix(low, "docs/") || strings.HasPrefix(low, "doc/")) && (strings.HasSuffix(low, ".md") || strings.HasSuffix(low, ".txt")) {
			docs = append(docs, f)
		}
	}
	if len(docs) > 0 {
		c.Facts = append(c.Facts, fmt.Sprintf("Docs: %s, e.g. %s", counted(len(docs), "document"), strings.Join(docs[:min(len(docs), 5)], ", ")))
	}
	for _, f := range docs[:min(len(docs), gatherDocs)] {
		if text, ok := readExcerpt(filepath.Join(abs, f), gatherDocExcerpt); ok {
			fmt.Fprintf(&dg, "\n## %s (excerpt)\n%s\n", f, text)
		}
	}

	// Git history.
	if log, why := gitLog(ctx, abs); why != "" {
		c.Facts = append(c.Facts, "No git history: "+why)
	} else if len(log) > 0 {
		c.Facts = append(c.Facts, fmt.Sprintf("Git: the %s; latest: %s", counted(len(log), "most recent commit"), log[0]))
		words := keywords(topic)
		var related []string
		for _, l := range log {
			if containsAny(strings.ToLower(l), words) {
				related = append(related, l)
			}
		}
		if len(related) > 0 {
			c.Facts = append(c.Facts, fmt.Sprintf("Commits on the topic: %s", strings.Join(related[:min(len(related), 3)], "; ")))
		}
		fmt.Fprintf(&dg, "\n## git log --oneline -n %d\n%s\n", gatherCommits, strings.Join(log, "\n"))
	}

	// Files mentioning the topic.
	if words := keywords(topic); len(words) > 0 {
		var hits []string
		// Code and docs before tests and fixtures.
		for _, tests := range []bool{false, true} {
			for _, f := range files {
				if len(hits) == gatherHits || ctx.Err() != nil {
					break
				}
				if isTest(f) != tests {
					continue
				}
				if line, ok := grepFirst(filepath.Join(abs, f), words); ok {
					hits = append(hits, fmt.Sprintf("%s: %s", f, short(line, 160)))
				}
			}
		}
		if len(hits) > 0 {
			names := make([]string, len(hits))
			for i, h := range hits {
				names[i], _, _ = strings.Cut(h, ":")
			}
			c.Facts = append(c.Facts, fmt.Sprintf("Files mentioning %s: %s", strings.Join(words, ", "), strings.Join(names, ", ")))
			fmt.Fprintf(&dg, "\n## Files mentioning the topic (%s)\n%s\n", strings.Join(words, ", "), strings.Join(hits, "\n"))
		} else {
			c.Facts = append(c.Facts, fmt.Sprintf("No file mentions the topic's key words (%s)", strings.Join(words, ", ")))
		}
	}
	c.Facts = append(c.Facts, noWebFact)
	c.Digest = dg.String()
	if len(c.Digest) > gatherDigest {
		cut := gatherDigest
		for cut > 0 && !utf8.RuneStart(c.Digest[cut]) {
			cut--
		}
		c.Digest = c.Digest[:cut] + "\n[... context truncated]\n"
	}
	return c, nil
}

// treeSummary lists top-level entries with file counts for directories.
func treeSummary(files []string) []string {
	counts := map[string]int{}
	var order []string
	for _, f := range files {
		top, rest, isDir := strings.Cut(f, "/")
		key := top
		if isDir && rest != "" {
			key = top + "/"
		}
		if _, ok := counts[key]; !ok {
			order = append(order, key)
		}
		counts[key]++
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		if strings.HasSuffix(k, "/") {
			out = append(out, fmt.Sprintf("%s (%d files)", k, counts[k]))
		} else {
			out = append(out, k)
		}
	}
	return out
}

func readExcerpt(path string, n int) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, n)
	m, _ := f.Read(buf)
	if m == 0 || bytes.IndexByte(buf[:m], 0) >= 0 {
		return "", false
	}
	text := buf[:m]
	for len(text) > 0 && !utf8.Valid(text) {
		text = text[:len(text)-1]
	}
	return strings.TrimSpace(string(text)), true
}

func firstParagraph(text string) string {
	for _, p := range strings.Split(text, "\n\n") {
		p = strings.TrimSpace(p)
		if p != "" && !strings.HasPrefix(p, "#") && !strings.HasPrefix(p, "[![") && !strings.HasPrefix(p, "<") {
			return oneLine(p)
		}
	}
	return ""
}

// gitLog returns `git log --oneline -n 30` of dir, or why there is none.
func gitLog(ctx context.Context, dir string) ([]string, string) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, "git is not installed"
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "--oneline", "--no-decorate", "-n", fmt.Sprint(gatherCommits))
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat")
	out, err := cmd.Output()
	if err != nil {
		return nil, "the directory is not in a git repository with commits"
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, ""
}

// keywords are the topic's distinctive words: five letters or more, not
// stop words, lower case, in order, without repeats.
func keywords(topic string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(topic), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) >= 5 && !stopWords[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func isTest(path string) bool {
	base := filepath.Base(path)
	return strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(path, "testdata/") || strings.Contains(path, "/testdata/") || strings.HasPrefix(path, "test/") || strings.Contains(path, "/test/")
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// grepFirst returns the first line of a text file that mentions a word.
func grepFirst(path string, words []string) (string, bool) {
	info, err := os.Stat(path)
	if err != nil || info.Size() > gatherMaxFileSize {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return "", false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if containsAny(strings.ToLower(sc.Text()), words) {
			return strings.TrimSpace(sc.Text()), true
		}
	}
	return "", false
}
