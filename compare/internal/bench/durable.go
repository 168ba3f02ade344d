package bench

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// The durable writes: kitchensync's durable server (apiserver.Open, whose
// writers share syncs) against etcd, the store kube-apiserver writes to,
// through etcd's own Go client (go.etcd.io/etcd/client/v3), on the same
// disk. writers goroutines at once write b.N new 1 KiB values in all
// (kitchensync: creates of Widgets with 1 KiB of spec; etcd: puts of
// 1 KiB values under new keys), each acknowledged only once it is synced
// (etcd syncs its WAL before it answers a put, as kitchensync syncs its
// log). Reported: writes/s and syncs per write (kitchensync: frames in its
// log, one per sync; etcd: its WAL fsyncs, from its metrics, and
// separately its backend commits). The etcd binary is the one
// shared/tools/real-apiserver/build.sh builds (in $KAS_CACHE, by default
// ~/.cache/real-apiserver/bin); without it these rows are left out.

func durableKS(writers int) func(*testing.B) {
	return func(b *testing.B) { apiservertest.BenchmarkDurableCreates(b, writers) }
}

func durableEtcd(writers int) func(*testing.B) {
	return func(b *testing.B) {
		e, err := theEtcd()
		if err != nil {
			b.Skip(err)
		}
		prefix := fmt.Sprintf("/bench/%d/", e.runs.Add(1))
		value := strings.Repeat("x", apiservertest.DurableValueBytes)
		before := e.metrics(b)
		var next atomic.Int64
		b.ResetTimer()
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
					if _, err := e.client.Put(context.Background(), prefix+strconv.FormatInt(i, 10), value); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		b.StopTimer()
		after := e.metrics(b)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
		b.ReportMetric((after.walFsyncs-before.walFsyncs)/float64(b.N), "syncs/write")
		b.ReportMetric((after.backendCommits-before.backendCommits)/float64(b.N), "backend-commits/write")

	}
}

// etcdServer is an etcd started for the benchmarks, once per process.
type etcdServer struct {
	cmd    *exec.Cmd
	dir    string
	url    string
	client *clientv3.Client
	runs   atomic.Int64
}

var (
	etcdOnce sync.Once
	etcdSrv  *etcdServer
	etcdErr  error
)

// EtcdBinary returns the etcd that shared/tools/real-apiserver/build.sh
// built, or "" if there is none.
func EtcdBinary() string {
	cache := os.Getenv("KAS_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "real-apiserver")
	}
	bin := filepath.Join(cache, "bin", "etcd")
	if _, err := os.Stat(bin); err != nil {
		return ""
	}
	return bin
}

// theEtcd starts etcd the first time it is asked for, in a temporary
// directory on the disk the kitchensync side writes to.
func theEtcd() (*etcdServer, error) {
	etcdOnce.Do(func() { etcdSrv, etcdErr = startEtcd() })
	return etcdSrv, etcdErr
}

func startEtcd() (*etcdServer, error) {
	bin := EtcdBinary()
	if bin == "" {
		return nil, fmt.Errorf("no etcd binary: build it with shared/tools/real-apiserver/build.sh")
	}
	dir, err := os.MkdirTemp("", "bench-etcd-")
	if err != nil {
		return nil, err
	}
	client, peer := "http://"+freeAddr(), "http://"+freeAddr()
	log, err := os.Create(filepath.Join(dir, "etcd.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--name", "bench", "--data-dir", filepath.Join(dir, "data"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "bench="+peer)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &etcdServer{cmd: cmd, dir: dir, url: client}
	e.client, err = clientv3.New(clientv3.Config{Endpoints: []string{client}, DialTimeout: 30 * time.Second})
	if err == nil {
		// The client waits for the server to be ready, up to the deadline.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err = e.client.Get(ctx, "/ready")
		cancel()
	}
	if err != nil {
		e.stop()
		return nil, fmt.Errorf("etcd did not start: %v (see %s)", err, log.Name())
	}
	return e, nil
}

// freeAddr returns a loopback address with a port free now.
func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (e *etcdServer) stop() {
	if e.client != nil {
		e.client.Close()
	}
	e.cmd.Process.Kill()
	e.cmd.Wait()
	os.RemoveAll(e.dir)
}

// Close stops what the benchmarks started (etcd), if anything.
func Close() {
	if etcdSrv != nil {
		etcdSrv.stop()
	}
}

// etcdMetrics are the counters of etcd's syncs.
type etcdMetrics struct{ walFsyncs, backendCommits float64 }

// metrics reads etcd's sync counters from its /metrics.
func (e *etcdServer) metrics(b *testing.B) etcdMetrics {
	resp, err := http.Get(e.url + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var m etcdMetrics
	for lines := bufio.NewScanner(resp.Body); lines.Scan(); {
		name, value, _ := strings.Cut(lines.Text(), " ")
		v, _ := strconv.ParseFloat(value, 64)
		switch name {
		case "etcd_disk_wal_fsync_duration_seconds_count":
			m.walFsyncs = v
		case "etcd_disk_backend_commit_duration_seconds_count":
			m.backendCommits = v
		}
	}
	return m
}
