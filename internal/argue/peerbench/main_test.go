package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
// stable = stable when a stable extension exists) are used, and sets are
// checked against the definitions when there is no list.
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
		{ex1, "DC-PR", "1", "YES\n", vOK, ""},
		{ex1, "DS-PR", "1", "YES\nw 1 3 4\n", vWrong, "reference false"},
		{ex1, "SE-PR", "", "w 5 2\n", vOK, ""},
		{ex1, "SE-PR", "", "w 1 2\n", vWrong, "not one of"},
		{ex1, "SE-GR", "", "w\n", vOK, ""},
		{ex1, "SE-ST", "", "NO\n", vWrong, "has an extension"},
		{ex1, "DC-CO", "1", "maybe\n", vError, "unexpected"},
		{adm, "DC-SST", "2", "NO\nw 1 4\n", vOK, ""},
		{adm, "DS-STG", "501", "YES\n", vOK, ""},
		{adm, "DC-ID", "1", "YES\n", vOK, ""},
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
