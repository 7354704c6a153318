/* ./v7 M N K [options]: the driver in common/ around this step's matmul(). */
#include "../common/driver.h"

int main(int argc, char **argv) { return driver_main(argc, argv, "v7_stream_k", matmul); }
