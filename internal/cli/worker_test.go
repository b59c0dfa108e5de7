package cli

import (
	"context"
	"net"
	"strings"
	"testing"
)

// A worker whose --metrics-addr cannot be served stops with a usage error
// before it starts taking debates (it would drop those it had taken).
func TestWorkerMetricsAddrTakenFirst(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	f := testFactory(t, "", false)
	root := NewRootCmd(f)
	root.SetArgs([]string{"worker", "--log-format", "text", "--metrics-addr", busy.Addr().String(), "--db", f.DBPath})
	err = root.ExecuteContext(context.Background())
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--metrics-addr "+busy.Addr().String()+": cannot listen") {
		t.Fatalf("worker on a busy metrics address: %v, want a usage error naming it", err)
	}
	if log := f.IO.ErrOut.(interface{ String() string }).String(); strings.Contains(log, "workers started") {
		t.Errorf("the worker started taking debates before it found its metrics address taken:\n%s", log)
	}
}
