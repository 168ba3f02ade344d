package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"regexp"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// doorFlags are the flags that decide who may come in.
type doorFlags struct {
	token, acceptHosts, certFile, keyFile string
}

// options turns the flags into the handler's options, refusing to serve
// on an address other machines can reach without a token: anyone who
// reached it could read and write the whole API.
func (d doorFlags) options(addr string) ([]httpapi.Option, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-addr %q: %w", addr, err)
	}
	loopback := host != "" && httpapi.IsLoopbackHost(host)
	if !loopback && d.token == "" {
		return nil, fmt.Errorf("refusing to serve on %q, which other machines can reach, without -token: "+
			"anyone who reached it could read and write the API", addr)
	}
	if (d.certFile == "") != (d.keyFile == "") {
		return nil, fmt.Errorf("-tls-cert and -tls-key go together")
	}
	var opts []httpapi.Option
	if d.token != "" {
		opts = append(opts, httpapi.WithBearerToken(d.token))
	}
	switch {
	case d.acceptHosts != "":
		re, err := regexp.Compile(d.acceptHosts)
		if err != nil {
			return nil, fmt.Errorf("-accept-hosts: %w", err)
		}
		opts = append(opts, httpapi.WithAcceptHosts(re))
	case !loopback:
		// Clients reach it by the machine's own names; the token keeps
		// strangers out.
		opts = append(opts, httpapi.WithAcceptHosts(regexp.MustCompile(`.`)))
	}
	return opts, nil
}

// listen listens on addr, with TLS when a certificate is given, and
// returns the URL clients use.
func (d doorFlags) listen(addr string) (net.Listener, string, error) {
	if d.certFile == "" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, "", err
		}
		return ln, "http://" + ln.Addr().String(), nil
	}
	cert, err := tls.LoadX509KeyPair(d.certFile, d.keyFile)
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", err
	}
	tl := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	return tl, "https://" + ln.Addr().String(), nil
}
