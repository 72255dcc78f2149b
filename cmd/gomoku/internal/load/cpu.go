package load

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of utime/stime in /proc/PID/stat (100 on every Linux
// this runs on; sysconf is not reachable without cgo).
const clockTicks = 100

// ErrBadCPUSpec is returned for a malformed -cpu flag.
var ErrBadCPUSpec = errors.New("load: -cpu wants name=PID[,name=PID...]")

// CPUProc names a process whose CPU time is read over the window (-cpu name=PID).
type CPUProc struct {
	Name string
	PID  int
}

// ParseCPUProcs parses "gomokud=123,redis=456".
func ParseCPUProcs(s string) ([]CPUProc, error) {
	if s == "" {
		return nil, nil
	}
	var out []CPUProc
	for _, part := range strings.Split(s, ",") {
		name, pid, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(pid)
		if !ok || name == "" || err != nil || n <= 0 {
			return nil, fmt.Errorf("%w: %q", ErrBadCPUSpec, part)
		}
		out = append(out, CPUProc{Name: name, PID: n})
	}
	return out, nil
}

// CPUUsage is one process's CPU time over the measurement window.
type CPUUsage struct {
	Name string  `json:"name"`
	PID  int     `json:"pid"` // 0: the load generator itself
	CPUS float64 `json:"cpu_s"`
	// MSPerMove is CPU milliseconds per acknowledged move in the window.
	MSPerMove float64 `json:"cpu_ms_per_move"`
}

// procCPU returns the user+system CPU time of pid (0: this process) from /proc.
func procCPU(pid int) (time.Duration, error) {
	path := "/proc/self/stat"
	if pid > 0 {
		path = "/proc/" + strconv.Itoa(pid) + "/stat"
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime and stime (fields 14 and 15) of a /proc/PID/stat line. The
// command name (field 2) may hold spaces, so fields are counted after its closing ')'.
func parseStatCPU(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, fmt.Errorf("load: bad /proc stat line")
	}
	f := strings.Fields(line[i+1:])
	// f[0] is field 3 (state): utime is field 14, i.e. f[11].
	if len(f) < 13 {
		return 0, fmt.Errorf("load: short /proc stat line")
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("load: bad /proc stat times")
	}
	return time.Duration(u+s) * time.Second / clockTicks, nil
}

// cpuMeter samples the CPU time of the named processes and of the load generator.
type cpuMeter struct {
	procs []CPUProc
	start []time.Duration
	ok    []bool
}

func newCPUMeter(procs []CPUProc) *cpuMeter {
	all := append([]CPUProc{{Name: "load", PID: 0}}, procs...)
	m := &cpuMeter{procs: all, start: make([]time.Duration, len(all)), ok: make([]bool, len(all))}
	for i, p := range all {
		d, err := procCPU(p.PID)
		m.start[i], m.ok[i] = d, err == nil
	}
	return m
}

// usage returns each process's CPU time since newCPUMeter, per move over acks moves.
func (m *cpuMeter) usage(acks uint64) []CPUUsage {
	var out []CPUUsage
	for i, p := range m.procs {
		d, err := procCPU(p.PID)
		if err != nil || !m.ok[i] {
			continue
		}
		u := CPUUsage{Name: p.Name, PID: p.PID, CPUS: (d - m.start[i]).Seconds()}
		if acks > 0 {
			u.MSPerMove = 1000 * u.CPUS / float64(acks)
		}
		out = append(out, u)
	}
	return out
}
