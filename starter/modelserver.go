package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/modelserver"
)

func init() { rootCmd.AddCommand(newModelServerCmd()) }

func newModelServerCmd() *cobra.Command {
	var (
		addr string
		cfg  modelserver.Config
	)
	cmd := &cobra.Command{
		Use:   "modelserver",
		Short: "Run the offline OpenAI-compatible model server (planner and executor)",
		Long: `modelserver runs phoneflow's offline model server until Ctrl-C. It answers
POST /v1/chat/completions (streaming and not) and GET /v1/models like an
OpenAI-compatible endpoint, playing the planner (model ids containing
"planner") and the vision executor (everything else) deterministically, so
goals run on the simulator with no API key.

Point both model settings at the printed base URL. Faults can be injected at
given rates (0..1) with a seed: 429 answers with Retry-After, 500 answers,
malformed answers the protocol parsers must reject, and wrong tap points.`,
		Example: `  starter modelserver
  starter modelserver --addr 127.0.0.1:8090 --seed 7 --latency 300ms --rate-429 0.1 --rate-wrong-tap 0.05
  starter modelserver --api-key local-secret`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, r := range []struct {
				flag string
				v    float64
			}{{"--rate-429", cfg.RateLimit429}, {"--rate-500", cfg.Rate500}, {"--rate-malformed", cfg.RateMalformed}, {"--rate-wrong-tap", cfg.RateWrongTap}, {"--rate-misread", cfg.RateMisread}} {
				if r.v < 0 || r.v > 1 {
					return usageError{fmt.Errorf("%s %v: a rate is a probability between 0 and 1", r.flag, r.v)}
				}
			}
			if err := cfg.Validate(); err != nil {
				return usageError{err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return runModelServer(ctx, cmd.OutOrStdout(), addr, cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", modelserver.DefaultAddr, "listen address (\":port\" binds loopback)")
	f.Int64Var(&cfg.Seed, "seed", 1, "seed for fault injection")
	f.DurationVar(&cfg.Latency, "latency", 0, "latency added to every completion (spread across chunks when streaming)")
	f.Float64Var(&cfg.RateLimit429, "rate-429", 0, "rate of 429 rate-limit answers (0..1)")
	f.Float64Var(&cfg.Rate500, "rate-500", 0, "rate of 500 server-error answers (0..1)")
	f.Float64Var(&cfg.RateMalformed, "rate-malformed", 0, "rate of malformed model answers (0..1)")
	f.Float64Var(&cfg.RateWrongTap, "rate-wrong-tap", 0, "rate of executor taps on a wrong point (0..1)")
	f.Float64Var(&cfg.RateMisread, "rate-misread", 0, "share of todos the executor misreads on purpose: another recipient or value, a clause dropped, the opposite of on/off (0..1)")
	f.DurationVar(&cfg.RetryAfter, "retry-after", time.Second, "Retry-After announced with 429 answers")
	f.StringVar(&cfg.APIKey, "api-key", "", "require this bearer API key (default: none)")
	f.StringSliceVar(&cfg.RejectFormats, "reject-format", nil, "answer 400 to requests with this response_format type (json_schema or json_object; repeatable), like a server without structured output")
	return cmd
}

// runModelServer listens, prints where to point the model clients, and
// serves until ctx is done.
func runModelServer(ctx context.Context, out io.Writer, addr string, cfg modelserver.Config) error {
	addr = modelserver.LoopbackAddr(addr)
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (pick a free port with --addr)", addr, err)
	}
	fmt.Fprintf(out, "offline model server listening\n  base URL:       http://%s/v1\n  planner model:  %s\n  executor model: %s\n",
		ln.Addr(), modelserver.PlannerModel, modelserver.ExecutorModel)
	if cfg.APIKey != "" {
		fmt.Fprintln(out, "  API key:        required (the one given with --api-key)")
	}
	fmt.Fprintln(out, "Press Ctrl-C to stop.")
	srv := modelserver.New(cfg)
	err = srv.Serve(ctx, ln)
	st := srv.Stats()
	fmt.Fprintf(out, "stopped after %d requests: %d answered (%d streamed; planner %d, executor %d); injected 429=%d 500=%d malformed=%d wrong-tap=%d; rejected unauthorized=%d bad=%d\n",
		st.Requests, st.Completions, st.Streams, st.Planner, st.Executor, st.Faults429, st.Faults500, st.Malformed, st.WrongTaps, st.Unauthorized, st.BadRequests)
	return err
}
