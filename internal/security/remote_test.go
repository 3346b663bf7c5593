package security

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
)

// pki is a throwaway CA with a server and a client certificate.
type pki struct {
	caFile, serverCert, serverKey, clientCert, clientKey string
	pool                                                 *x509.CertPool
}

func newPKI(t *testing.T) pki {
	t.Helper()
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "phoneflow test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p := pki{pool: x509.NewCertPool()}
	p.pool.AddCert(ca)
	p.caFile = writePEM(t, dir, "ca.pem", "CERTIFICATE", caDER)
	issue := func(name string, serial int64, usage x509.ExtKeyUsage, dns []string) (string, string) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name}, DNSNames: dns,
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kder, _ := x509.MarshalECPrivateKey(key)
		return writePEM(t, dir, name+".pem", "CERTIFICATE", der), writePEM(t, dir, name+"-key.pem", "EC PRIVATE KEY", kder)
	}
	p.serverCert, p.serverKey = issue("temporal.test", 2, x509.ExtKeyUsageServerAuth, []string{"temporal.test"})
	p.clientCert, p.clientKey = issue("phoneflow-worker", 3, x509.ExtKeyUsageClientAuth, nil)
	return p
}

func writePEM(t *testing.T, dir, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// seen is what the fake frontend learned about a caller.
type seen struct {
	mu      sync.Mutex
	auth    []string
	clients []string
	methods []string
}

// fakeFrontend is a TLS gRPC server that demands a client certificate
// signed by the test CA and records each call's credentials, answering
// every call with Unavailable.
func fakeFrontend(t *testing.T, p pki) (string, *seen) {
	t.Helper()
	cert, err := tls.LoadX509KeyPair(p.serverCert, p.serverKey)
	if err != nil {
		t.Fatal(err)
	}
	s := &seen{}
	creds := credentials.NewTLS(&tls.Config{
		Certificates: []tls.Certificate{cert}, ClientCAs: p.pool,
		ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12,
	})
	srv := grpc.NewServer(grpc.Creds(creds), grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		ctx := stream.Context()
		md, _ := metadata.FromIncomingContext(ctx)
		method, _ := grpc.MethodFromServerStream(stream)
		s.mu.Lock()
		s.auth = append(s.auth, md.Get("authorization")...)
		s.methods = append(s.methods, method)
		if pr, ok := peer.FromContext(ctx); ok {
			if ti, ok := pr.AuthInfo.(credentials.TLSInfo); ok {
				for _, c := range ti.State.PeerCertificates {
					s.clients = append(s.clients, c.Subject.CommonName)
				}
			}
		}
		s.mu.Unlock()
		return status.Error(codes.Unavailable, "test frontend")
	}))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)
	return l.Addr().String(), s
}

// TestRemoteClusterCredentials dials a TLS frontend that requires a client
// certificate, with the options phoneflow builds from its config: the
// handshake presents the configured certificate, verifies the server
// against the configured CA and name, and every call carries the API key.
func TestRemoteClusterCredentials(t *testing.T) {
	p := newPKI(t)
	addr, s := fakeFrontend(t, p)
	cfg := config.Default()
	cfg.Temporal.Address = addr
	cfg.Temporal.APIKey = temporalKey
	cfg.Temporal.TLS = config.TLS{CertFile: p.clientCert, KeyFile: p.clientKey, CAFile: p.caFile, ServerName: "temporal.test"}
	opts, err := app.ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if c, err := client.DialContext(ctx, opts); err == nil {
		c.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.methods) == 0 {
		t.Fatal("no call reached the frontend: the TLS handshake failed")
	}
	if len(s.clients) == 0 || s.clients[0] != "phoneflow-worker" {
		t.Errorf("client certificates seen = %v, want phoneflow-worker", s.clients)
	}
	if len(s.auth) == 0 || s.auth[0] != "Bearer "+temporalKey {
		t.Errorf("authorization seen = %q, want the API key as a Bearer token", s.auth)
	}

	// Without the client certificate the same frontend refuses the caller.
	cfg.Temporal.TLS.CertFile, cfg.Temporal.TLS.KeyFile = "", ""
	opts, err = app.ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.methods)
	s.mu.Unlock()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if c, err := client.DialContext(ctx2, opts); err == nil {
		c.Close()
		t.Error("dial without a client certificate succeeded")
	}
	s.mu.Lock()
	if len(s.methods) != before {
		t.Errorf("a call without a client certificate reached the frontend")
	}
}

// TestRemoteClusterOptionErrors checks the client options for remote
// clusters: an API key turns TLS on for a non-loopback address (with the
// configured server name), and certificate files that cannot be loaded are
// named in the error.
func TestRemoteClusterOptionErrors(t *testing.T) {
	cfg := config.Default()
	cfg.Temporal.Address = "ns.example.tmprl.cloud:7233"
	cfg.Temporal.APIKey = temporalKey
	cfg.Temporal.TLS.ServerName = "ns.example.tmprl.cloud"
	opts, err := app.ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tc := opts.ConnectionOptions.TLS; tc == nil || tc.ServerName != "ns.example.tmprl.cloud" || tc.MinVersion < tls.VersionTLS12 {
		t.Errorf("API key on a remote address: TLS = %+v, want TLS ≥1.2 with the server name", tc)
	}
	if opts.Credentials == nil {
		t.Error("API key set but no credentials")
	}
	cfg.Temporal.APIKey = ""
	if opts, _ := app.ClientOptions(cfg, nil); opts.Credentials != nil || opts.ConnectionOptions.TLS != nil {
		t.Error("no API key and no TLS settings: want plain gRPC without credentials")
	}

	p := newPKI(t)
	missing := filepath.Join(t.TempDir(), "nope.pem")
	for name, tc := range map[string]config.TLS{
		"cert": {CertFile: missing, KeyFile: p.clientKey},
		"key":  {CertFile: p.clientCert, KeyFile: missing},
		"ca":   {CAFile: missing},
		"pair": {CertFile: p.clientCert, KeyFile: p.serverKey},
	} {
		cfg.Temporal.TLS = tc
		_, err := app.ClientOptions(cfg, nil)
		want := missing
		if name == "pair" {
			want = p.clientCert
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "temporal.tls") {
			t.Errorf("%s: err = %v, want one naming %s and the temporal.tls setting", name, err, want)
		}
	}
}
