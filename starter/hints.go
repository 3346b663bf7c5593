package main

import (
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/progress"
)

// conn returns the flags a printed command needs to reach the same
// cluster as this one, when it is not the default: a hint pasted into
// another terminal (without this one's flags or environment) must reach the
// goal it names.
func conn(cfg config.Config) progress.Conn {
	def := config.Default()
	var st, tc []string
	t := cfg.Temporal
	if t.Address != "" {
		st = append(st, "--temporal-address", t.Address)
		tc = append(tc, "--address", t.Address)
	} else {
		if t.Embedded.Port != def.Temporal.Embedded.Port {
			st = append(st, "--temporal-port", strconv.Itoa(t.Embedded.Port))
		}
		// The Web UI links the command prints are at the embedded UI's
		// port, which is the Temporal port + 1000 unless set.
		if ui := t.Embedded.UIPort; ui > 0 && ui != t.Embedded.Port+1000 {
			st = append(st, "--temporal-ui-port", strconv.Itoa(ui))
		}
		tc = append(tc, "--address", temporalAddress(cfg))
	}
	if t.Namespace != "" && t.Namespace != def.Temporal.Namespace {
		st = append(st, "--namespace", t.Namespace)
		tc = append(tc, "--namespace", t.Namespace)
	}
	if t.TLS.Enabled {
		st = append(st, "--tls")
		tc = append(tc, "--tls")
	}
	for _, f := range []struct{ path, ours, theirs string }{
		{t.TLS.CertFile, "--tls-cert", "--tls-cert-path"},
		{t.TLS.KeyFile, "--tls-key", "--tls-key-path"},
		{t.TLS.CAFile, "--tls-ca", "--tls-ca-path"},
	} {
		if f.path != "" {
			st = append(st, f.ours, quoteArg(f.path))
			tc = append(tc, f.theirs, quoteArg(f.path))
		}
	}
	return progress.Conn{Starter: strings.Join(st, " "), Temporal: strings.Join(tc, " ")}
}

// quoteArg quotes a shell argument that holds a space or a quote.
func quoteArg(s string) string {
	if strings.ContainsAny(s, " '\"$\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// starterCmd is a printed `starter …` command with this connection's flags.
func starterCmd(cfg config.Config, args string) string {
	if f := conn(cfg).Starter; f != "" {
		return "starter " + args + " " + f
	}
	return "starter " + args
}

// withConn adds c's starter flags to a printed `starter …` command.
func withConn(cmd string, c progress.Conn) string {
	if c.Starter == "" {
		return cmd
	}
	return cmd + " " + c.Starter
}
