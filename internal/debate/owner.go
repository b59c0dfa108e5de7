package debate

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// processStart is when this process started, as near as Go can tell: it
// tells a runner's process apart from a later one that reused its pid.
var processStart = time.Now()

// ThisProcess is a new lease owner for a runner in this process: a random id,
// the host name, the pid and the process's start time.
func ThisProcess() LeaseOwner {
	var b [8]byte
	_, _ = rand.Read(b[:])
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return LeaseOwner{ID: hex.EncodeToString(b[:]), Host: host, PID: os.Getpid(), Started: processStart}
}

// jobOwnerPrefix begins the id of a lease owner that runs a job.
const jobOwnerPrefix = "job-"

// JobOwner is the lease owner of the run of job jobID in this process: the
// id names the job, so that a lease left behind by a worker that died says
// that a job queue will take the debate over (Summary.Shown).
func JobOwner(jobID int64) LeaseOwner {
	o := ThisProcess()
	o.ID = fmt.Sprintf("%s%d-%s", jobOwnerPrefix, jobID, o.ID)
	return o
}

// IsJob reports whether the owner runs a job (JobOwner).
func (o LeaseOwner) IsJob() bool {
	_, ok := o.Job()
	return ok
}

// Job is the id of the job the owner runs (JobOwner), and whether it runs
// one.
func (o LeaseOwner) Job() (int64, bool) {
	rest, ok := strings.CutPrefix(o.ID, jobOwnerPrefix)
	if !ok {
		return 0, false
	}
	n, _, ok := strings.Cut(rest, "-")
	id, err := strconv.ParseInt(n, 10, 64)
	return id, ok && err == nil
}

// OwnerAlive reports whether a lease's owner may still be running: false
// only for a process of this host that no longer exists. Owners on other
// hosts are judged by their lease's expiry alone.
func OwnerAlive(o LeaseOwner) bool {
	host, err := os.Hostname()
	if err != nil || o.Host != host || o.PID <= 0 {
		return true
	}
	if o.PID == os.Getpid() {
		return true
	}
	return processExists(o.PID)
}
