#include "application.h"

int main(int argc, char **argv)
{
    return runIdlegpu(argc, argv);
}
