package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
	"github.com/parleyhq/parley/internal/argue/randaf"
)

// emptyName is the empty framework written next to the random instances:
// it measures each binary's start-up, as the sample set's empty instance
// does.
const emptyName = "empty.af"

// writeRandom writes the empty framework and ins to dir and returns their
// paths, the empty one first.
func writeRandom(dir string, ins []randaf.Instance) ([]string, error) {
	if err := randaf.Write(dir, ins); err != nil {
		return nil, fmt.Errorf("write the random instances (pass another -random directory): %w", err)
	}
	empty := filepath.Join(dir, emptyName)
	if err := randaf.WriteI23(empty, argue.NewNumbered(0)); err != nil {
		return nil, fmt.Errorf("write the empty framework (pass another -random directory): %w", err)
	}
	paths := []string{empty}
	for _, in := range ins {
		paths = append(paths, in.Path(dir))
	}
	return paths, nil
}

// randomInstance reads a generated .af file back (so that the checks see
// exactly what both solvers read). It has no reference answers: every
// case is timed and judged against the peer, on the query arguments
// randaf.QueryArgs picks (numbered from 1, as the solvers take them).
func randomInstance(path string) (instance, bool, error) {
	in := instance{path: path, large: true, byPeer: true}
	in.name = strings.TrimSuffix(filepath.Base(path), ".af")
	f, err := os.Open(path)
	if err != nil {
		return in, false, fmt.Errorf("open the random instance: %w", err)
	}
	defer f.Close()
	if in.af, err = iccma.ParseI23(f); err != nil {
		return in, false, fmt.Errorf("%s: %w", path, err)
	}
	for _, a := range randaf.QueryArgs(in.af.Len(), "DC") {
		in.args = append(in.args, strconv.Itoa(a+1))
	}
	return in, true, nil
}

// judgeByPeer replaces the verdicts of a case without reference answers
// (check could only say "?" for DC/DS, or test an extension against its
// definition) by agreement between the two solvers. A timeout or an error
// is left as it is, and so is an extension that fails its definition
// (WRONG); a peer's WRONG does not excuse Parley's answer from the
// comparison, since Parley's "NO" would then be unconfirmed.
func (r *row) judgeByPeer() {
	p, q := &r.parley, &r.peer
	if !ok(*p) || !ok(*q) || p.verdict == vWrong {
		return
	}
	set := func(v string) {
		p.verdict = v
		if q.verdict != vWrong {
			q.verdict = v
		}
	}
	differ := func(why string) {
		set(vDisagree)
		p.note = fmt.Sprintf("%s: Parley %q, μ-toksia %q", why, p.answer, q.answer)
	}
	kind, sem, _ := strings.Cut(r.task, "-")
	if kind != "SE" {
		if p.answer != q.answer {
			differ("different answers")
			return
		}
		set(vAgree)
		return
	}
	if (p.answer == "NO") != (q.answer == "NO") {
		differ("one finds an extension, the other says there is none")
		return
	}
	if sem == "ST" {
		// Both NO, or both an extension, Parley's found stable by check.
		set(vAgree)
	}
	// Other semantics keep check's verdict: for PR, ok~ (complete,
	// maximality unchecked); preferred extensions need not be unique, so
	// the two sets may differ and both be right.
}
