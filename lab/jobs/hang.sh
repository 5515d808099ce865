# hang: never return (the host must kill the guest at its timeout).
echo "hanging" > hang.txt
while :; do sleep 3600; done
