module gqtrace

go 1.26.0

require golang.org/x/exp v0.0.0-20260112195511-716be5621a96
