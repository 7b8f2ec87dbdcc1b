package flight

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	adbcfs "github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	if status.Code(err) != code {
		t.Errorf("%s: got %v, want %v", what, err, code)
	}
}

func bearer(ctx context.Context, tok string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
}

func TestAuthToken(t *testing.T) {
	addr, _ := startServer(t, Config{AuthToken: "s3cret"})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	_, err := cl.Execute(ctx, "select 1")
	wantCode(t, "no token", err, codes.Unauthenticated)
	_, err = cl.Execute(bearer(ctx, "wrong"), "select 1")
	wantCode(t, "wrong token", err, codes.Unauthenticated)
	_, err = cl.GetTables(ctx, nil)
	wantCode(t, "metadata without token", err, codes.Unauthenticated)
	info, err := cl.Execute(bearer(ctx, "s3cret"), "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	// The ticket alone is not enough either.
	if _, _, err := fetch(ctx, t, cl, info); status.Code(err) != codes.Unauthenticated {
		t.Errorf("DoGet without token: %v", err)
	}
	_, bs, err := fetch(bearer(ctx, "s3cret"), t, cl, info)
	defer release(bs)
	if err != nil || countRows(bs) != 1 {
		t.Fatalf("right token: %v", err)
	}

	// ADBC with the authorization header, and without.
	cn, err := adbcConn(t, addr, map[string]string{adbcfs.OptionAuthorizationHeader: "Bearer s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := cn.NewStatement()
	defer st.Close()
	st.SetSqlQuery("select count(*) from region")
	rdr, _, err := st.ExecuteQuery(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, got := readAll(t, rdr)
	release(got)
	cn2, err := adbcConn(t, addr, nil)
	if err == nil {
		st2, _ := cn2.NewStatement()
		defer st2.Close()
		st2.SetSqlQuery("select 1")
		_, _, err = st2.ExecuteQuery(ctx)
	}
	var ae adbc.Error
	if err == nil {
		t.Error("ADBC without token succeeded")
	} else if errors.As(err, &ae) && ae.Code != adbc.StatusUnauthenticated {
		t.Errorf("ADBC without token: %v", err)
	}
}

func TestAuthUsers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "users")
	os.WriteFile(file, []byte("# users\nalice:wonder land\nbob:builder\n"), 0o600)
	users, err := ReadUsers(file)
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := startServer(t, Config{Users: users})
	cl := newClient(t, addr)
	ctx := testCtx(t)
	if _, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "wrong"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("wrong password: %v", err)
	}
	if _, err := cl.Client.AuthenticateBasicToken(ctx, "mallory", "wonder land"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("unknown user: %v", err)
	}
	actx, err := cl.Client.AuthenticateBasicToken(ctx, "alice", "wonder land")
	if err != nil {
		t.Fatal(err)
	}
	info, err := cl.Execute(actx, "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(actx, t, cl, info)
	release(bs)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.Execute(ctx, "select 1")
	wantCode(t, "no session token", err, codes.Unauthenticated)

	// ADBC logs in with user name and password.
	cn, err := adbcConn(t, addr, map[string]string{adbc.OptionKeyUsername: "bob", adbc.OptionKeyPassword: "builder"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cn.GetTableSchema(ctx, nil, nil, "region"); err != nil {
		t.Fatal(err)
	}
	if _, err := adbcConn(t, addr, map[string]string{adbc.OptionKeyUsername: "bob", adbc.OptionKeyPassword: "nope"}); err == nil {
		t.Error("ADBC with a wrong password connected")
	}
}

// selfSigned makes a certificate for 127.0.0.1 and returns it with its
// PEM.
func selfSigned(t *testing.T) (tls.Certificate, []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gq test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func TestTLS(t *testing.T) {
	cert, certPEM := selfSigned(t)
	addr, _ := startServer(t, Config{TLS: &tls.Config{Certificates: []tls.Certificate{cert}}})
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	ctx := testCtx(t)

	cl := newClient(t, addr, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: pool})))
	info, err := cl.Execute(ctx, "select count(*) from nation")
	if err != nil {
		t.Fatal(err)
	}
	_, bs, err := fetch(ctx, t, cl, info)
	release(bs)
	if err != nil {
		t.Fatal(err)
	}

	// A plain client fails cleanly, and soon.
	plain := newClient(t, addr)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := plain.Execute(pctx, "select 1"); err == nil || status.Code(err) == codes.DeadlineExceeded {
		t.Errorf("plain client against TLS: %v", err)
	}

	cn, err := adbcConn(t, addr, map[string]string{adbc.OptionKeyURI: "grpc+tls://" + addr, adbcfs.OptionSSLRootCerts: string(certPEM)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cn.GetTableSchema(ctx, nil, nil, "region"); err != nil {
		t.Fatal(err)
	}
}
