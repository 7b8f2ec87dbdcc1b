module gq

go 1.26.0

require (
	github.com/apache/arrow-go/v18 v18.8.0
	golang.org/x/sync v0.24.0
)

require (
	github.com/chzyer/readline v1.5.1 // indirect
	github.com/goccy/go-json v0.10.6 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/pingcap/go-tpc v1.0.9 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	golang.org/x/sys v0.47.0 // indirect
	vitess.io/vitess v0.23.3 // indirect
)
