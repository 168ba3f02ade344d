package rest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"testing"
	"time"
)

// pki is a small certificate authority made for one test: the CA, a
// server certificate for 127.0.0.1, and a client certificate for the
// user "waiter", all PEM.
type pki struct {
	caPEM                []byte
	serverCert           tls.Certificate
	clientPEM, clientKey []byte
	caPool               *x509.CertPool
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	caKey := newKey(t)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kitchen-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p := &pki{caPEM: pemOf("CERTIFICATE", caDER), caPool: x509.NewCertPool()}
	p.caPool.AddCert(ca)

	srvPEM, srvKey := p.sign(t, ca, caKey, &x509.Certificate{
		Subject: pkix.Name{CommonName: "kitchen-apiserver"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	if p.serverCert, err = tls.X509KeyPair(srvPEM, srvKey); err != nil {
		t.Fatal(err)
	}
	p.clientPEM, p.clientKey = p.sign(t, ca, caKey, &x509.Certificate{
		Subject: pkix.Name{CommonName: "waiter"}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	return p
}

// sign issues a certificate from tmpl, signed by the CA, and returns it
// and its new key as PEM.
func (p *pki) sign(t *testing.T, ca *x509.Certificate, caKey *ecdsa.PrivateKey, tmpl *x509.Certificate) (cert, key []byte) {
	t.Helper()
	k := newKey(t)
	tmpl.SerialNumber = big.NewInt(time.Now().UnixNano())
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pemOf("CERTIFICATE", der), pemOf("EC PRIVATE KEY", kder)
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func pemOf(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}
