package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
)

// answers mirrors the reference files *.answers.json of the ICCMA sample
// set (see testdata/iccma/README.md): full extension lists and acceptance
// tables for small instances; grounded extension, stable existence, counts,
// optional lists and a few acceptance queries for large ones.
type answers struct {
	Extensions map[string][][]string      `json:"extensions"`
	Acceptance map[string]map[string]bool `json:"acceptance"`
	GR         []string                   `json:"GR"`
	STExists   any                        `json:"ST_exists"`
	PRCount    any                        `json:"PR_count"`
	ST         [][]string                 `json:"ST"`
	PR         [][]string                 `json:"PR"`
	Queries    map[string]map[string]bool `json:"queries"`
}

// instance is one framework in ICCMA'23 numeric format with its reference
// answers, translated to argument numbers.
type instance struct {
	name   string // file name, e.g. admbuster_1000.af
	path   string // the .af file both solvers read
	af     *argue.Framework
	ans    answers
	large  bool     // no full extension lists: timed, not just checked
	args   []string // query arguments (numbers), from the reference answers or randaf.QueryArgs
	byPeer bool     // no reference answers at all: judged by agreement with the peer (see judgeByPeer)
}

// loadInstance reads answersPath and the .af file it belongs to. Answers
// written for an .apx file name arguments; the sibling .af file maps them
// to numbers in "# <number> <name>" comment lines, which loadInstance uses
// to translate every name in the answers. ok is false when there is no
// .af file to run.
func loadInstance(answersPath string) (in instance, ok bool, err error) {
	raw, err := os.ReadFile(answersPath)
	if err != nil {
		return in, false, fmt.Errorf("read reference answers: %w", err)
	}
	if err := json.Unmarshal(raw, &in.ans); err != nil {
		return in, false, fmt.Errorf("%s: not a reference answer file: %w", answersPath, err)
	}
	src := strings.TrimSuffix(answersPath, ".answers.json")
	in.path = strings.TrimSuffix(strings.TrimSuffix(src, ".apx"), ".af") + ".af"
	if _, err := os.Stat(in.path); err != nil {
		return in, false, nil
	}
	in.name = in.path[strings.LastIndexByte(in.path, '/')+1:]
	f, err := os.Open(in.path)
	if err != nil {
		return in, false, fmt.Errorf("open instance: %w", err)
	}
	defer f.Close()
	if in.af, err = iccma.ParseI23(f); err != nil {
		return in, false, fmt.Errorf("%s: %w", in.path, err)
	}
	if strings.HasSuffix(src, ".apx") {
		names, err := commentNames(in.path)
		if err != nil {
			return in, false, err
		}
		in.ans = in.ans.renamed(names)
	}
	in.large = in.ans.Extensions == nil
	table := in.ans.Acceptance
	if in.large {
		table = in.ans.Queries
	}
	for a := range table {
		in.args = append(in.args, a)
	}
	slices.SortFunc(in.args, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return in, true, nil
}

// commentNames maps names to numbers from "# <number> <name>" lines.
func commentNames(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open instance: %w", err)
	}
	defer f.Close()
	names := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "#" {
			names[fields[2]] = fields[1]
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return names, nil
}

// renamed translates argument names through names (unknown names are kept).
func (a answers) renamed(names map[string]string) answers {
	one := func(s string) string {
		if n, ok := names[s]; ok {
			return n
		}
		return s
	}
	sets := func(in [][]string) [][]string {
		var out [][]string
		for _, e := range in {
			m := make([]string, len(e))
			for i, s := range e {
				m[i] = one(s)
			}
			out = append(out, m)
		}
		return out
	}
	table := func(in map[string]map[string]bool) map[string]map[string]bool {
		if in == nil {
			return nil
		}
		out := map[string]map[string]bool{}
		for k, v := range in {
			out[one(k)] = v
		}
		return out
	}
	r := a
	if a.Extensions != nil {
		r.Extensions = map[string][][]string{}
		for k, v := range a.Extensions {
			r.Extensions[k] = sets(v)
		}
	}
	r.Acceptance, r.Queries = table(a.Acceptance), table(a.Queries)
	r.GR, r.ST, r.PR = sets([][]string{a.GR})[0], sets(a.ST), sets(a.PR)
	return r
}

// Verdicts of an answer against the reference.
const (
	vOK      = "ok"      // equals the reference, or a set checked to be one of the reference extensions
	vPartial = "ok~"     // a set that meets the definition checked (see the note), not a full reference
	vWrong   = "WRONG"   // contradicts the reference
	vUnknown = "?"       // no reference for this question
	vTimeout = "timeout" // no answer in time
	vError   = "error"   // the solver failed
	vNA      = "n/a"     // the solver does not offer this task

	// Without a reference (random instances), against the other solver.
	vAgree    = "agree"    // the same answer, and an extension meets its definition
	vDisagree = "DISAGREE" // the two solvers' answers differ
)

// check judges a solver's output for task (e.g. "DC-CO") and query
// argument arg (empty for SE) against the reference: the first line, and
// the certificate that follows DC YES and DS NO.
// note says what was checked when the verdict is vPartial.
func (in instance) check(task, arg, output string) (verdict, note string) {
	first, _, _ := strings.Cut(strings.TrimSpace(output), "\n")
	first = strings.TrimSpace(first)
	kind, sem, _ := strings.Cut(task, "-")
	if kind == "SE" {
		return in.checkSet(sem, first)
	}
	var got bool
	switch first {
	case "YES":
		got = true
	case "NO":
	default:
		return vError, fmt.Sprintf("unexpected output %q", first)
	}
	want, ok := in.acceptance(kind, sem, arg)
	if !ok {
		return vUnknown, ""
	}
	if got != want {
		return vWrong, fmt.Sprintf("answered %s, reference %v", first, want)
	}
	if got != (kind == "DC") {
		return vOK, ""
	}
	// ICCMA 2023: YES to DC, NO to DS, comes with a certificate, an
	// extension that contains the argument (DC) or lacks it (DS).
	_, rest, _ := strings.Cut(strings.TrimSpace(output), "\n")
	cert, _, _ := strings.Cut(rest, "\n")
	cert = strings.TrimSpace(cert)
	if cert != "w" && !strings.HasPrefix(cert, "w ") {
		return vWrong, fmt.Sprintf("answered %s without a certificate", first)
	}
	if slices.Contains(strings.Fields(cert)[1:], arg) != (kind == "DC") {
		return vWrong, fmt.Sprintf("certificate %q: %s", cert, map[bool]string{true: "lacks the argument", false: "contains the argument"}[kind == "DC"])
	}
	switch v, note := in.checkSet(sem, cert); v {
	case vOK:
		return vOK, ""
	case vUnknown:
		return vPartial, "certificate not checked to be an extension (no reference list or check for " + sem + ")"
	default:
		return v, "certificate: " + note
	}
}

// acceptance returns the reference answer to DC/DS-sem for arg.
func (in instance) acceptance(kind, sem, arg string) (bool, bool) {
	if !in.large {
		row := in.ans.Acceptance[arg]
		switch sem {
		case "GR", "ID": // unique extension: credulous = skeptical
			v, ok := row[sem]
			return v, ok
		}
		v, ok := row[kind+"-"+sem]
		return v, ok
	}
	row := in.ans.Queries[arg]
	if v, ok := row[kind+"-"+sem]; ok {
		return v, true
	}
	switch sem {
	case "SST", "STG":
		// When a stable extension exists, the semi-stable and the stage
		// extensions are exactly the stable ones (their range is everything).
		if exists, _ := in.ans.STExists.(bool); exists {
			v, ok := row[kind+"-ST"]
			return v, ok
		}
	case "ID":
		// The ideal extension lies in every preferred extension, so an
		// argument that some preferred extension lacks is not in it.
		if v, ok := row["DS-PR"]; ok && !v {
			return false, true
		}
		if p := in.uniquePreferred(); p != nil {
			return slices.Contains(p, arg), true
		}
	}
	return false, false
}

// uniquePreferred is the only preferred extension when the reference has
// enumerated exactly one; it is then also the ideal extension (the largest
// admissible subset of all preferred extensions).
func (in instance) uniquePreferred() []string {
	if c, ok := in.ans.PRCount.(float64); ok && c == 1 && len(in.ans.PR) == 1 {
		return in.ans.PR[0]
	}
	return nil
}

// checkSet judges an SE answer: "NO" or "w a b c".
func (in instance) checkSet(sem, line string) (string, string) {
	if line == "NO" {
		if in.noExtension(sem) {
			return vOK, ""
		}
		if in.hasExtension(sem) {
			return vWrong, "answered NO, the reference has an extension"
		}
		return vUnknown, ""
	}
	if line != "w" && !strings.HasPrefix(line, "w ") {
		return vError, fmt.Sprintf("unexpected output %q", line)
	}
	got := strings.Fields(line)[1:]
	if list, ok := in.extensions(sem); ok {
		if slices.Contains(canonAll(list), canon(got)) {
			return vOK, ""
		}
		return vWrong, "not one of the reference extensions"
	}
	e := argue.Extension{}
	for _, s := range got {
		a, ok := in.af.Index(s)
		if !ok {
			return vWrong, fmt.Sprintf("%q is not an argument", s)
		}
		e = append(e, a)
	}
	slices.Sort(e)
	switch sem {
	case "CO":
		if in.af.IsComplete(e) {
			return vOK, "" // any complete extension answers SE-CO
		}
		return vWrong, "not complete"
	case "ST":
		if in.af.IsStable(e) {
			return vOK, "" // any stable extension answers SE-ST
		}
		return vWrong, "not stable"
	case "PR", "SST":
		if !in.af.IsComplete(e) {
			return vWrong, "not complete"
		}
		return vPartial, "complete; maximality not checked"
	}
	return vUnknown, ""
}

// extensions is the full reference list of sem-extensions, when known.
func (in instance) extensions(sem string) ([][]string, bool) {
	if !in.large {
		l, ok := in.ans.Extensions[sem]
		return l, ok
	}
	switch sem {
	case "GR":
		return [][]string{in.ans.GR}, true
	case "ST":
		return in.ans.ST, in.ans.ST != nil
	case "PR":
		return in.ans.PR, in.ans.PR != nil
	case "SST", "STG":
		if exists, _ := in.ans.STExists.(bool); exists && in.ans.ST != nil {
			return in.ans.ST, true // see acceptance: they are the stable ones
		}
	case "ID":
		if p := in.uniquePreferred(); p != nil {
			return [][]string{p}, true
		}
	}
	return nil, false
}

func (in instance) noExtension(sem string) bool {
	if l, ok := in.extensions(sem); ok {
		return len(l) == 0
	}
	exists, known := in.ans.STExists.(bool)
	return sem == "ST" && known && !exists
}

func (in instance) hasExtension(sem string) bool {
	if l, ok := in.extensions(sem); ok {
		return len(l) > 0
	}
	if sem != "ST" {
		return true // every other semantics has at least one extension
	}
	exists, _ := in.ans.STExists.(bool)
	return exists
}

func canon(e []string) string {
	e = slices.Clone(e)
	slices.SortFunc(e, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return strings.Join(e, " ")
}

func canonAll(l [][]string) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = canon(e)
	}
	return out
}
