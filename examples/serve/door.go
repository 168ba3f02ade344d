package main

import (
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
)

// doorFlags are the flags of the door: who may come in.
type doorFlags struct {
	acceptHosts, token, tokenFile, tlsCert, tlsKey string
}

func (f *doorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.acceptHosts, "accept-hosts", "", "comma-separated `REGEXPS` of the Host names answered, as kubectl proxy --accept-hosts (empty: loopback names only)")
	fs.StringVar(&f.token, "token", "", "ask every request for this bearer `TOKEN` (the page: open it once with ?token=TOKEN)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from `FILE`")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "serve HTTPS with this certificate `FILE` (PEM; with -tls-key)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "the certificate's private key `FILE` (PEM)")
}

// check refuses flags that do not go together, and an address other
// machines can reach without a token.
func (f *doorFlags) check(addr string) error {
	if f.token != "" && f.tokenFile != "" {
		return errors.New("-token and -token-file: give one of them")
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return errors.New("-tls-cert and -tls-key go together: give both")
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v", addr, err)
	}
	if f.token == "" && f.tokenFile == "" && !httpapi.IsLoopbackHost(host) {
		return fmt.Errorf("-addr %q can be reached from other machines: add -token TOKEN (or -token-file FILE), "+
			"and -tls-cert/-tls-key to keep it off the wire, or listen on 127.0.0.1", addr)
	}
	return nil
}

// door is the door the flags describe, with its files read.
type door struct {
	hosts   []*regexp.Regexp
	token   string
	tls     *tls.Config
	certPEM []byte
}

func (f *doorFlags) load() (door, error) {
	var d door
	for _, s := range strings.Split(f.acceptHosts, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return d, fmt.Errorf("-accept-hosts %q: %v", s, err)
		}
		d.hosts = append(d.hosts, re)
	}
	d.token = f.token
	if f.tokenFile != "" {
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return d, fmt.Errorf("-token-file: %v", err)
		}
		if d.token = strings.TrimSpace(string(b)); d.token == "" {
			return d, fmt.Errorf("-token-file %q is empty", f.tokenFile)
		}
	}
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return d, fmt.Errorf("-tls-cert/-tls-key: %v", err)
		}
		if d.certPEM, err = os.ReadFile(f.tlsCert); err != nil {
			return d, fmt.Errorf("-tls-cert: %v", err)
		}
		// HTTP/2 first, as kube-apiserver offers it: a client-go client
		// then sends every request and watch over one connection.
		d.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"h2", "http/1.1"}}
	}
	return d, nil
}

// options are the site's options for this door.
func (d door) options() []liveview.Option {
	var opts []liveview.Option
	if d.hosts != nil {
		opts = append(opts, liveview.WithAcceptHosts(d.hosts...))
	}
	if d.token != "" {
		opts = append(opts, liveview.WithBearerToken(d.token))
	}
	return opts
}

// listen listens on addr, with TLS when a certificate was given.
func (d door) listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil || d.tls == nil {
		return ln, err
	}
	return tls.NewListener(ln, d.tls), nil
}

// url is the server's base URL, for clients on this machine: an address
// that listens on every interface is reached on 127.0.0.1.
func (d door) url(addr net.Addr) string {
	scheme, host := "http", addr.String()
	if d.tls != nil {
		scheme = "https"
	}
	if a, ok := addr.(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", fmt.Sprint(a.Port))
	}
	return scheme + "://" + host
}

// announce prints where the page and the API are.
func (d door) announce(out io.Writer, base, namespace, kubeconfig string) {
	page := base + "/"
	if d.token != "" {
		page += "?token=" + url.QueryEscape(d.token)
	}
	fmt.Fprintf(out, "the pass is open: %s\n", page)
	if d.token == "" && d.tls == nil {
		fmt.Fprintf(out, "kubectl works on the same address: kubectl --server %s get orders -n %s -w\n", base, namespace)
	}
	if kubeconfig != "" {
		fmt.Fprintf(out, "kubeconfig written: kubectl --kubeconfig %q get orders -w\n", kubeconfig)
	}
}

// kubeconfig is a kubeconfig for the server at server, with namespace as
// the context's namespace, carrying the token and the certificate (as the
// authority to trust) when there are.
func (d door) kubeconfig(server, namespace string) string {
	cluster := "    server: " + quote(server) + "\n"
	if d.certPEM != nil {
		cluster += "    certificate-authority-data: " + base64.StdEncoding.EncodeToString(d.certPEM) + "\n"
	}
	user := "  user: {}\n"
	if d.token != "" {
		user = "  user:\n    token: " + quote(d.token) + "\n"
	}
	return "apiVersion: v1\nkind: Config\nclusters:\n- name: kitchensync\n  cluster:\n" + cluster +
		"users:\n- name: kitchensync\n" + user +
		"contexts:\n- name: kitchensync\n  context:\n    cluster: kitchensync\n    user: kitchensync\n    namespace: " +
		quote(namespace) + "\ncurrent-context: kitchensync\n"
}

// quote writes s as a YAML double-quoted scalar (JSON strings are YAML).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
