#
# The physpay processes behind the edge. Copy to physpay-backends.vcl beside physpay.vcl (or anywhere on
# varnishd's vcl_path) and list one backend per `physpay serve` process. Every process serves the same
# dist-data and shares one PostgreSQL service store (--service-db postgres://...).
#
# Health: a backend is used while /readyz answers 200 (a build is loaded and the service store answers).
#
vcl 4.1;

probe physpay_ready {
    .url = "/readyz";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 2;
}

backend physpay1 {
    .host = "127.0.0.1";
    .port = "8081";
    .probe = physpay_ready;
}

backend physpay2 {
    .host = "127.0.0.1";
    .port = "8082";
    .probe = physpay_ready;
}

sub physpay_backends {
    physpay.add_backend(physpay1);
    physpay.add_backend(physpay2);
}
