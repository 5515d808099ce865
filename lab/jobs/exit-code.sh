# exit-code N: exit with status N, after writing a marker file.
echo "exiting with $1" > exit-code.txt
exit "$1"
