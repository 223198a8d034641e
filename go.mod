module github.com/magneton-games/magneton

go 1.26.8
