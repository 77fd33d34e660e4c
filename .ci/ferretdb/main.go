// Command ferretdb runs FerretDB v1 (the PostgreSQL handler) for the MongoDB adapters' tests.
//
// It is FerretDB's embeddable package behind a few flags rather than FerretDB's own command:
// `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` builds a binary that panics at
// start (its module zip lacks the generated build/version/version.txt), while the embeddable
// package needs no generated files. It also starts no telemetry reporter, no debug HTTP
// listener and writes no state file.
//
// It listens on -listen (port 0: a free one), prints "ready mongodb://host:port/" on stdout once
// it accepts connections, and stops on SIGINT/SIGTERM or when its standard input closes (the test
// process that started it went away).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0: any free port)")
	postgresqlURL := flag.String("postgresql-url", "", "PostgreSQL database FerretDB keeps its data in")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	watchStdin := flag.Bool("exit-on-stdin-close", true, "stop when standard input reaches its end")
	flag.Parse()
	if *postgresqlURL == "" {
		fmt.Fprintln(os.Stderr, "ferretdb: -postgresql-url is required")
		os.Exit(2)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: bad -log-level: %v\n", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       "postgresql",
		PostgreSQLURL: *postgresqlURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()

	// MongoDBURI waits until Run has bound the listener.
	fmt.Printf("ready %s\n", f.MongoDBURI())
	<-done
}
