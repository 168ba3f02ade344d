package realserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// realCPU returns a function giving the CPU time used so far by the real
// server's processes (etcd and kube-apiserver), which start.sh lists in
// the pids file beside the kubeconfig; it gives 0 if they cannot be read.
func realCPU(kubeconfig string) func() time.Duration {
	raw, _ := os.ReadFile(filepath.Join(filepath.Dir(kubeconfig), "pids"))
	pids := strings.Fields(string(raw))
	return func() time.Duration {
		var total time.Duration
		for _, pid := range pids {
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				return 0
			}
			// After the command's name in parentheses: state is field 3,
			// utime and stime fields 14 and 15, in clock ticks of 1/100 s.
			_, rest, _ := strings.Cut(string(stat), ") ")
			f := strings.Fields(rest)
			if len(f) < 13 {
				return 0
			}
			for _, s := range f[11:13] {
				ticks, _ := strconv.ParseInt(s, 10, 64)
				total += time.Duration(ticks) * 10 * time.Millisecond
			}
		}
		return total
	}
}
