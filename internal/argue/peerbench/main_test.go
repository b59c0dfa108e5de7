package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const data = "../testdata/iccma"

func load(t *testing.T, rel string) instance {
	t.Helper()
	in, ok, err := loadInstance(filepath.Join(data, rel))
	if err != nil || !ok {
		t.Fatalf("load %s: %v (found: %v)", rel, err, ok)
	}
	return in
}

// TestCheck pins the judge: answers for apx-named instances are translated
// to the .af numbers, wrong answers are caught, derived references (semi-
// stable = stable when a stable extension exists) are used, sets are
// checked against the definitions when there is no list, and DC YES and
// DS NO need a certificate that contains (lacks) the argument.
func TestCheck(t *testing.T) {
	ex1 := load(t, "probo/ex1.apx.answers.json") // a1..a5 are 1..5; PR = ST = {a2,a5}, {a1,a3,a4}
	adm := load(t, "iccma2023/admbuster_1000.af.answers.json")
	afgen := load(t, "afgen/n100p3q34ve.apx.answers.json") // 473 stable extensions, none listed
	tests := []struct {
		in              instance
		task, arg, out  string
		want            string
		wantNoteContain string
	}{
		{ex1, "DC-PR", "1", "YES\nw 1 3 4\n", vOK, ""},
		{ex1, "DC-PR", "1", "YES\n", vWrong, "without a certificate"},
		{ex1, "DC-PR", "1", "YES\nw 2 5\n", vWrong, "lacks the argument"},
		{ex1, "DC-PR", "1", "YES\nw 1 3\n", vWrong, "certificate: not one of"},
		{ex1, "DS-PR", "2", "NO\nw 1 3 4\n", vOK, ""},
		{ex1, "DS-PR", "2", "NO\nw 2 5\n", vWrong, "contains the argument"},
		{ex1, "DS-PR", "2", "NO\n", vWrong, "without a certificate"},
		{ex1, "DS-PR", "1", "YES\nw 1 3 4\n", vWrong, "reference false"},
		{ex1, "SE-PR", "", "w 5 2\n", vOK, ""},
		{ex1, "SE-PR", "", "w 1 2\n", vWrong, "not one of"},
		{ex1, "SE-GR", "", "w\n", vOK, ""},
		{ex1, "SE-ST", "", "NO\n", vWrong, "has an extension"},
		{ex1, "DC-CO", "1", "maybe\n", vError, "unexpected"},
		{adm, "DC-SST", "2", "NO\nw 1 4\n", vOK, ""},
		{adm, "DS-STG", "501", "YES\n", vOK, ""},
		{adm, "DC-ID", "1", "YES\nw 1 3\n", vWrong, "certificate: not one of"}, // the ideal extension is the unique preferred one
		{adm, "DC-ID", "2", "YES\n", vWrong, ""},
		{adm, "SE-GR", "", "w 1 2\n", vWrong, ""},
		{afgen, "DC-ID", "51", "NO\n", vOK, ""}, // DS-PR false, so not ideal
		{afgen, "SE-CO", "", "w\n", vOK, ""},    // grounded is empty: {} is complete
		{afgen, "SE-ST", "", "w\n", vWrong, "not stable"},
		{afgen, "SE-PR", "", "w\n", vPartial, "maximality not checked"},
		{afgen, "SE-STG", "", "w 1\n", vUnknown, ""},
	}
	for _, tt := range tests {
		got, note := tt.in.check(tt.task, tt.arg, tt.out)
		if got != tt.want || !strings.Contains(note, tt.wantNoteContain) {
			t.Errorf("%s %s %s %q: %s (%s), want %s (%q)", tt.in.name, tt.task, tt.arg, tt.out, got, note, tt.want, tt.wantNoteContain)
		}
	}
}

// TestPeerBench runs the whole comparison. It takes minutes and needs the
// peer built (shared/peers/build-mu-toksia.sh), so it runs only with
// PARLEY_PEERBENCH=1 (PARLEY_PEERBENCH_ONLY narrows the instances); it
// fails on any wrong answer from Parley and writes the table to the log.
func TestPeerBench(t *testing.T) {
	if os.Getenv("PARLEY_PEERBENCH") == "" {
		t.Skip("set PARLEY_PEERBENCH=1 to run the side-by-side benchmark against μ-toksia (minutes)")
	}
	cfg := config{peer: DefaultPeer(), data: data, tasks: defaultTasks(), runs: 3, timeout: 30 * time.Second,
		only: os.Getenv("PARLEY_PEERBENCH_ONLY")}
	var out strings.Builder
	rows, small, err := run(context.Background(), cfg, &out)
	if errors.Is(err, errPeerMissing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	for _, r := range rows {
		if r.parley.verdict == vWrong || r.parley.verdict == vError {
			t.Errorf("%s %s %s: Parley %s %s", r.in.name, r.task, r.arg, r.parley.verdict, r.parley.note)
		}
	}
	for _, b := range small.parleyBad {
		t.Errorf("small instance: Parley %s", b)
	}
}

// TestJudgeByPeer pins the judge of the random instances, which have no
// reference answers: a different YES/NO or a different SE-ST existence is
// DISAGREE, an SE-ST extension must be stable, an SE-PR extension complete
// (ok~), and a timeout is not turned into agreement.
func TestJudgeByPeer(t *testing.T) {
	dir := t.TempDir()
	// 1 and 2 attack each other, 2 attacks 3: stable {1,3} and {2};
	// 4 attacks itself, so with it there is no stable extension.
	even := filepath.Join(dir, "even.af")
	odd := filepath.Join(dir, "odd.af")
	if err := os.WriteFile(even, []byte("p af 3\n1 2\n2 1\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(odd, []byte("p af 4\n1 2\n2 1\n2 3\n4 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, _, err := randomInstance(even)
	if err != nil {
		t.Fatal(err)
	}
	od, _, err := randomInstance(odd)
	if err != nil {
		t.Fatal(err)
	}
	if ev.name != "even" || !slices.Equal(ev.args, []string{"1", "1", "3"}) {
		t.Errorf("randomInstance: name %q, args %v", ev.name, ev.args)
	}
	tests := []struct {
		in                 instance
		task, parley, peer string
		want, wantPeer     string
	}{
		{ev, "DC-CO", "YES", "YES", vAgree, vAgree},
		{ev, "DS-PR", "NO", "YES", vDisagree, vDisagree},
		{ev, "SE-ST", "w 1 3", "w 2", vAgree, vAgree},
		{ev, "SE-ST", "w 1", "w 2", vWrong, vOK}, // {1} does not attack 3
		{ev, "SE-ST", "NO", "w 2", vDisagree, vDisagree},
		{od, "SE-ST", "NO", "NO", vAgree, vAgree},
		{od, "SE-ST", "w 1 3", "NO", vWrong, vUnknown}, // 4 is not attacked
		{od, "SE-ST", "NO", "w 1 3", vDisagree, vWrong},
		{ev, "SE-ST", "w 2", "w 1", vAgree, vWrong},
		{ev, "SE-PR", "w 1 3", "w 2", vPartial, vPartial},
		{ev, "SE-PR", "w 1", "w 2", vWrong, vPartial}, // not complete: 3 is defended
		{ev, "DC-CO", "YES", "", vUnknown, vTimeout},
	}
	for _, tt := range tests {
		c := benchCase{in: tt.in, task: tt.task, arg: "1"}
		if strings.HasPrefix(tt.task, "SE") {
			c.arg = ""
		}
		r := row{benchCase: c}
		r.parley.verdict, r.parley.note = tt.in.check(tt.task, c.arg, tt.parley)
		r.parley.answer = tt.parley
		if tt.peer == "" {
			r.peer.verdict = vTimeout
		} else {
			r.peer.verdict, r.peer.note = tt.in.check(tt.task, c.arg, tt.peer)
			r.peer.answer = tt.peer
		}
		r.judgeByPeer()
		if r.parley.verdict != tt.want || r.peer.verdict != tt.wantPeer {
			t.Errorf("%s %s: Parley %q, peer %q: judged %s/%s (%s), want %s/%s", tt.in.name, tt.task, tt.parley, tt.peer,
				r.parley.verdict, r.peer.verdict, r.parley.note, tt.want, tt.wantPeer)
		}
	}
}

// TestPeerBenchRandom runs the comparison on the random frameworks of
// internal/argue/randaf (the goal tasks; minutes; PARLEY_PEERBENCH=1 as
// TestPeerBench, and PARLEY_PEERBENCH_PARLEY may name the binary, e.g. a
// built parley-af). It fails when Parley's answer disagrees with
// μ-toksia's, fails its definition, or is missing where μ-toksia answered.
func TestPeerBenchRandom(t *testing.T) {
	if os.Getenv("PARLEY_PEERBENCH") == "" {
		t.Skip("set PARLEY_PEERBENCH=1 to run the side-by-side benchmark against μ-toksia (minutes)")
	}
	cfg := config{parley: os.Getenv("PARLEY_PEERBENCH_PARLEY"), peer: DefaultPeer(), random: t.TempDir(),
		tasks: goalTasks(), runs: 3, timeout: 30 * time.Second, only: os.Getenv("PARLEY_PEERBENCH_ONLY")}
	var out strings.Builder
	rows, _, err := run(context.Background(), cfg, &out)
	if errors.Is(err, errPeerMissing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	if len(rows) == 0 {
		t.Fatal("no case was run")
	}
	for _, r := range rows {
		switch v := r.parley.verdict; {
		case v == vDisagree || v == vWrong || v == vError:
			t.Errorf("%s %s %s: Parley %s %s", r.in.name, r.task, r.arg, v, r.parley.note)
		case v == vTimeout && ok(r.peer):
			t.Errorf("%s %s %s: Parley timed out, μ-toksia answered in %.1f ms", r.in.name, r.task, r.arg, r.peer.ms)
		}
	}
}
