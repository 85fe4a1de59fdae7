/* thread-churn — starts and joins threads in rounds (20 at a time, each alive 0–50 ms), so that
 * a kernel hands out new thread ids all the time. Tools/vcan-run-stress runs it beside its jobs.
 * Usage: thread-churn [ROUNDS] (default 100). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static void *body(void *unused) {
    (void)unused;
    usleep(1000 * (rand() % 50));
    return 0;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    for (int round = 0; round < rounds; round++) {
        pthread_t threads[20];
        for (int i = 0; i < 20; i++) pthread_create(&threads[i], 0, body, 0);
        for (int i = 0; i < 20; i++) pthread_join(threads[i], 0);
    }
    return 0;
}
